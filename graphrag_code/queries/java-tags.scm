; Java definitions, calls, imports and base types.
; Captures follow the tags convention documented in graphrag_code/extract.py.
;
; - class, record, an enum constant with a body -> class; interface, @interface -> interface; enum -> enum;
;   methods and an annotation's elements -> method;
;   constructors (also compact record constructors) -> method named after the class.
;   Annotations sit in the declaration's `modifiers`, so they are inside the range; Javadoc and comments
;   directly above are added by the engine (LanguageSpec.leading_types).
; - calls: `f()`, `x.f()` (@receiver `x`, `this`, `super`, `Type`), `new Foo()` / `new Foo<>()` as a call to
;   `Foo`, `new a.b.Foo()` as a call to `Foo` with receiver `a.b`.
; - imports: `import a.b.C;` -> module `a.b.C`, name `C`; `import static a.b.C.m;` -> module `a.b.C.m`,
;   name `m`; `import a.b.*;` -> module `a.b`, wildcard.
; - `extends` of a class -> inherits; `extends` of an interface -> inherits; `implements` -> implements.
; - declared variables, fields and their types -> @reference.binding (they type receivers: `in.next()`).
; - `super(...)` / `this(...)` in a constructor -> @reference.chain (a call of the base class or of the class).
; Not captured: lambdas and method references (`this::f`), annotations as references.

; ---- types -------------------------------------------------------------------------------------------------
(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

; an enum constant with a body (`PLUS { int apply(...) {...} }`) is a class extending its enum (below)
(enum_constant
  name: (identifier) @name
  body: (class_body)) @definition.class

; ---- methods and constructors ------------------------------------------------------------------------------
; an annotation's elements (`String value() default "";`) are its methods
(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(compact_constructor_declaration
  name: (identifier) @name) @definition.method

; ---- base types --------------------------------------------------------------------------------------------
(superclass
  [
    (type_identifier) @name
    (generic_type . (type_identifier) @name)
    (scoped_type_identifier (type_identifier) @name .)
    (generic_type . (scoped_type_identifier (type_identifier) @name .))
  ]) @reference.inherits

(extends_interfaces
  (type_list
    [
      (type_identifier) @name
      (generic_type . (type_identifier) @name)
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ] @reference.inherits))

(super_interfaces
  (type_list
    [
      (type_identifier) @name
      (generic_type . (type_identifier) @name)
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ] @reference.implements))

(enum_declaration
  name: (identifier) @name
  body: (enum_body (enum_constant body: (class_body)) @reference.inherits))

; ---- calls -------------------------------------------------------------------------------------------------
(method_invocation
  !object
  name: (identifier) @name) @reference.call

(method_invocation
  object: (_) @receiver
  name: (identifier) @name) @reference.call

(object_creation_expression
  type: [
    (type_identifier) @name
    (generic_type . (type_identifier) @name)
  ]) @reference.call

(object_creation_expression
  type: [
    (scoped_type_identifier (_) @receiver . (type_identifier) @name .)
    (generic_type . (scoped_type_identifier (_) @receiver . (type_identifier) @name .))
  ]) @reference.call

; ---- imports -----------------------------------------------------------------------------------------------
(import_declaration
  (scoped_identifier name: (identifier) @import.name) @import.module .) @reference.import

(import_declaration
  (identifier) @import.module .) @reference.import

(import_declaration
  [(scoped_identifier) (identifier)] @import.module
  (asterisk) @import.wildcard) @reference.import

; ---- declared variables (@reference.binding): their types type receivers (`Foo f = ...; f.go()`, a field's
; `exec.shutdown()`); a `var` by its initializer. Fields are the class's attribute types.
(local_variable_declaration declarator: (variable_declarator name: (identifier) @name)) @reference.binding
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @reference.binding
(enhanced_for_statement name: (identifier) @name) @reference.binding
(resource name: (identifier) @name) @reference.binding
(catch_formal_parameter name: (identifier) @name) @reference.binding

; ---- a constructor handing over (@reference.chain): `super(...)` calls the base class, `this(...)` the class
(explicit_constructor_invocation constructor: [(super) (this)] @name) @reference.chain

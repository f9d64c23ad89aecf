; C# definitions, calls, imports and base types.
; Captures follow the tags convention documented in graphrag_code/extract.py.
;
; - namespaces -> module. A block namespace `namespace A.B { }` is its own node; a file-scoped `namespace A.B;`
;   is captured on the compilation unit, which the engine turns into a module running from the `namespace`
;   line to the end of the file, so the types after it are `A.B.Type` in both styles.
; - class, record (also `record struct`) -> class; struct; interface; enum; delegate -> type;
;   methods and constructors -> method (a constructor is named after its type); local functions -> function;
;   properties -> method (`Name { get => Compute(); }`: the calls in its accessors are its own), an indexer ->
;   method `this`. Fields, events, operators and destructors are not definitions.
;   Attributes (`[Obsolete]`) are inside the declaration node; `///` XML doc comments directly above are added
;   by the engine (LanguageSpec.leading_types).
; - base list: C# does not say which entry is the base class, so this uses the naming convention:
;   the FIRST entry of a class or record is @reference.inherits unless its name looks like an interface
;   (`I`, an uppercase letter, then a lowercase one: `IDisposable`, `IEnumerable<T>`; so `IOException` and
;   `IPAddress` stay base classes, but an interface such as `IUIElement` is taken for a class);
;   every other entry is @reference.implements.
;   All entries of a struct are implements (structs cannot inherit); all entries of an interface are
;   inherits (an interface extends interfaces, as in Java).
; - calls: `F()`, `x.F()` / `this.F()` / `base.F()` (@receiver), `F<T>()`, `x?.F()` (@receiver `x`),
;   `new Foo()` / `new List<T>()` as a call to `Foo` / `List`, `new A.B.Foo()` with receiver `A.B`.
;   Target-typed `new()` names no type and is skipped. `: base(...)` / `: this(...)` -> @reference.chain (a call
;   of the base class or of the class).
; - imports: `using X.Y;` and `using static X.Y;` -> module `X.Y`; `using A = X.Y;` -> module `X.Y`, alias `A`.

; ---- namespaces --------------------------------------------------------------------------------------------
(namespace_declaration
  name: (_) @name) @definition.module

(compilation_unit
  (file_scoped_namespace_declaration
    name: (_) @name)) @definition.module

; ---- types -------------------------------------------------------------------------------------------------
(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name) @definition.struct

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(delegate_declaration
  name: (identifier) @name) @definition.type

; ---- methods -----------------------------------------------------------------------------------------------
(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(local_function_statement
  name: (identifier) @name) @definition.function

(property_declaration
  name: (identifier) @name) @definition.method

(indexer_declaration
  "this" @name) @definition.method

; ---- base types (see the naming convention above) ----------------------------------------------------------
((class_declaration
  (base_list .
    [
      (identifier) @name
      (generic_name . (identifier) @name)
      (qualified_name name: (identifier) @name)
      (qualified_name name: (generic_name . (identifier) @name))
    ] @reference.inherits))
  (#not-match? @name "^I[A-Z][a-z]"))

((record_declaration
  (base_list .
    [
      (identifier) @name
      (generic_name . (identifier) @name)
      (qualified_name name: (identifier) @name)
      (qualified_name name: (generic_name . (identifier) @name))
      (primary_constructor_base_type type: [
        (identifier) @name
        (generic_name . (identifier) @name)
        (qualified_name name: (identifier) @name)
        (qualified_name name: (generic_name . (identifier) @name))
      ])
    ] @reference.inherits))
  (#not-match? @name "^I[A-Z][a-z]"))

((class_declaration
  (base_list .
    [
      (identifier) @name
      (generic_name . (identifier) @name)
      (qualified_name name: (identifier) @name)
      (qualified_name name: (generic_name . (identifier) @name))
    ] @reference.implements))
  (#match? @name "^I[A-Z][a-z]"))

((record_declaration
  (base_list .
    [
      (identifier) @name
      (generic_name . (identifier) @name)
      (qualified_name name: (identifier) @name)
      (qualified_name name: (generic_name . (identifier) @name))
    ] @reference.implements))
  (#match? @name "^I[A-Z][a-z]"))

; entries after the first of a class or record
(class_declaration
  (base_list
    (_) .
    [
      (identifier) @name
      (generic_name . (identifier) @name)
      (qualified_name name: (identifier) @name)
      (qualified_name name: (generic_name . (identifier) @name))
    ] @reference.implements))

(record_declaration
  (base_list
    (_) .
    [
      (identifier) @name
      (generic_name . (identifier) @name)
      (qualified_name name: (identifier) @name)
      (qualified_name name: (generic_name . (identifier) @name))
    ] @reference.implements))

(struct_declaration
  (base_list
    [
      (identifier) @name
      (generic_name . (identifier) @name)
      (qualified_name name: (identifier) @name)
      (qualified_name name: (generic_name . (identifier) @name))
    ] @reference.implements))

(interface_declaration
  (base_list
    [
      (identifier) @name
      (generic_name . (identifier) @name)
      (qualified_name name: (identifier) @name)
      (qualified_name name: (generic_name . (identifier) @name))
    ] @reference.inherits))

; ---- calls -------------------------------------------------------------------------------------------------
; (`nameof(x)` is an operator, no call)
((invocation_expression
  function: [
    (identifier) @name
    (generic_name . (identifier) @name)
  ]) @reference.call
  (#not-eq? @name "nameof"))

(invocation_expression
  function: (member_access_expression
    expression: _ @receiver
    name: [
      (identifier) @name
      (generic_name . (identifier) @name)
    ])) @reference.call

(invocation_expression
  function: (conditional_access_expression
    condition: (_) @receiver
    (member_binding_expression
      name: [
        (identifier) @name
        (generic_name . (identifier) @name)
      ]))) @reference.call

(object_creation_expression
  type: [
    (identifier) @name
    (generic_name . (identifier) @name)
  ]) @reference.call

(object_creation_expression
  type: (qualified_name
    qualifier: (_) @receiver
    name: [
      (identifier) @name
      (generic_name . (identifier) @name)
    ])) @reference.call

; ---- imports -----------------------------------------------------------------------------------------------
(using_directive
  !name
  (_) @import.module) @reference.import

(using_directive
  name: (identifier) @import.alias
  .
  (_) @import.module) @reference.import

; ---- declared variables (@reference.binding): their types type receivers (`Foo f = ...; f.Go()`, a field's
; `_exec.Shutdown()`); a `var` by its initializer. Fields and properties are the class's attribute types.
(variable_declaration (variable_declarator name: (identifier) @name)) @reference.binding
(foreach_statement left: (identifier) @name) @reference.binding
(catch_declaration name: (identifier) @name) @reference.binding
(property_declaration name: (identifier) @name) @reference.binding

; ---- a constructor handing over (@reference.chain): `: base(...)` calls the base class, `: this(...)` the class
(constructor_initializer) @reference.chain

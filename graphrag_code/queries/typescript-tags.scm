; TypeScript (.ts .mts .cts) definitions, calls, imports and base types.
; Captures follow the tree-sitter tags convention of graphrag_code/extract.py (module docstring).
; tsx-tags.scm loads this file through its `; inherits: typescript` line. What JavaScript shares with it is in
; ecmascript-tags.scm, loaded first:
; inherits: ecmascript
;
; Definitions are captured on the whole statement (export_statement / ambient_declaration /
; lexical_declaration / expression_statement) so that doc comments above it, class decorators and the
; `export` / `declare` keywords are inside the range; when both the bare and the wrapped form match, the
; engine keeps the wider one. Method decorators are siblings of the method in the class body: they are
; added to the range through LanguageSpec.leading_types ("decorator").
; Function-valued assignments are definitions named by their whole left-hand side
; (`app.use = function use() {}` -> `app.use`).
; Kinds: class (also abstract), interface, type (type aliases), enum, module (namespace / module /
; declare module), function (methods once nested in a class or interface; a namespace's stay functions, found by
; their bare names inside it as in a C++ namespace: languages.py namespace_kinds).
; Not captured: functions in object literals other than a top-level one's (ecmascript-tags.scm), `this.x = function`
; assignments, named function
; expressions passed as arguments, computed method names, method overload signatures inside classes,
; `declare global`, `export =` / `import X = N.Y` aliases.

; ---------------------------------------------------------------------------------------------------
; functions

([(function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
  (function_signature name: (identifier) @name)
  (export_statement declaration: [(function_declaration name: (identifier) @name)
                                  (generator_function_declaration name: (identifier) @name)
                                  (function_signature name: (identifier) @name)])
  (ambient_declaration (function_signature name: (identifier) @name))
  (export_statement declaration: (ambient_declaration (function_signature name: (identifier) @name)))]) @definition.function

; `const f = () => {}`, `let f = function () {}`, `var f = function* () {}` (optionally exported)
([(lexical_declaration
   (variable_declarator
     name: (identifier) @name
     value: [(arrow_function) (function_expression) (generator_function)]))
  (variable_declaration
   (variable_declarator
     name: (identifier) @name
     value: [(arrow_function) (function_expression) (generator_function)]))
  (export_statement declaration: (lexical_declaration
   (variable_declarator
     name: (identifier) @name
     value: [(arrow_function) (function_expression) (generator_function)])))
  (export_statement declaration: (variable_declaration
   (variable_declarator
     name: (identifier) @name
     value: [(arrow_function) (function_expression) (generator_function)])))]) @definition.function

; `export const computed: IComputedFactory = function computed() {} as any` (MobX), `... satisfies F`: the cast
; does not hide the function (`_` is a lexical or a variable declaration)
([(_ (variable_declarator
     name: (identifier) @name
     value: [(as_expression . [(arrow_function) (function_expression) (generator_function)])
             (satisfies_expression . [(arrow_function) (function_expression) (generator_function)])]))
  (export_statement declaration: (_ (variable_declarator
     name: (identifier) @name
     value: [(as_expression . [(arrow_function) (function_expression) (generator_function)])
             (satisfies_expression . [(arrow_function) (function_expression) (generator_function)])])))]) @definition.function

; `const observableFactories: IObservableFactory = { box() {}, ... } as any` (MobX): the object-literal functions of
; ecmascript-tags.scm behind a cast (`_`: `as` or `satisfies`; the object is its first child)
(program
  [(_ (variable_declarator name: (identifier) @owner value: (_ . (object
        [(method_definition name: (property_identifier) @name)
         (pair key: (property_identifier) @name
               value: [(arrow_function) (function_expression) (generator_function)])] @definition.function))))
   (export_statement declaration: (_ (variable_declarator name: (identifier) @owner value: (_ . (object
        [(method_definition name: (property_identifier) @name)
         (pair key: (property_identifier) @name
               value: [(arrow_function) (function_expression) (generator_function)])] @definition.function)))))])

; `return { batch: (cb) => ..., schedule } as const`: the returned object's functions of ecmascript-tags.scm behind a
; cast (`_`: `as` or `satisfies`)
(return_statement
  (_ . (object
     [(method_definition name: (property_identifier) @name)
      (pair key: (property_identifier) @name
            value: [(arrow_function) (function_expression) (generator_function)])] @definition.function)))

; class members: methods, getters/setters, static and abstract methods, fields holding functions
(class_body
  [(method_definition name: [(property_identifier) (private_property_identifier)] @name)
   (abstract_method_signature name: [(property_identifier) (private_property_identifier)] @name)
   (public_field_definition
     name: [(property_identifier) (private_property_identifier)] @name
     value: [(arrow_function) (function_expression) (generator_function)])] @definition.function)

; interface methods
(interface_body
  (method_signature name: (property_identifier) @name) @definition.function)

; ---------------------------------------------------------------------------------------------------
; classes, interfaces, type aliases, enums, namespaces

([(class_declaration name: (type_identifier) @name)
  (abstract_class_declaration name: (type_identifier) @name)
  (export_statement declaration: [(class_declaration name: (type_identifier) @name)
                                  (abstract_class_declaration name: (type_identifier) @name)])
  (ambient_declaration [(class_declaration name: (type_identifier) @name)
                        (abstract_class_declaration name: (type_identifier) @name)])
  (export_statement declaration: (ambient_declaration [(class_declaration name: (type_identifier) @name)
                                                       (abstract_class_declaration name: (type_identifier) @name)]))
  (lexical_declaration (variable_declarator name: (identifier) @name value: (class)))
  (variable_declaration (variable_declarator name: (identifier) @name value: (class)))
  (export_statement declaration: (lexical_declaration
    (variable_declarator name: (identifier) @name value: (class))))
  (expression_statement (assignment_expression
    left: [(identifier) (member_expression object: [(identifier) (member_expression)])] @name
    right: (class)))]) @definition.class

([(interface_declaration name: (type_identifier) @name)
  (export_statement declaration: (interface_declaration name: (type_identifier) @name))
  (ambient_declaration (interface_declaration name: (type_identifier) @name))
  (export_statement declaration: (ambient_declaration (interface_declaration name: (type_identifier) @name)))]) @definition.interface

([(type_alias_declaration name: (type_identifier) @name)
  (export_statement declaration: (type_alias_declaration name: (type_identifier) @name))
  (ambient_declaration (type_alias_declaration name: (type_identifier) @name))
  (export_statement declaration: (ambient_declaration (type_alias_declaration name: (type_identifier) @name)))]) @definition.type

([(enum_declaration name: (identifier) @name)
  (export_statement declaration: (enum_declaration name: (identifier) @name))
  (ambient_declaration (enum_declaration name: (identifier) @name))
  (export_statement declaration: (ambient_declaration (enum_declaration name: (identifier) @name)))]) @definition.enum

; namespace A.B {} / module M {} / declare module 'pkg' {} / declare namespace N {}
([(internal_module name: [(identifier) (nested_identifier)] @name)
  (module name: [(identifier) (nested_identifier)] @name)
  (module name: (string (string_fragment) @name))
  (expression_statement (internal_module name: [(identifier) (nested_identifier)] @name))
  (export_statement declaration: [(internal_module name: [(identifier) (nested_identifier)] @name)
                                  (module name: [(identifier) (nested_identifier)] @name)])
  (ambient_declaration [(internal_module name: [(identifier) (nested_identifier)] @name)
                        (module name: [(identifier) (nested_identifier)] @name)
                        (module name: (string (string_fragment) @name))])
  (export_statement declaration: (ambient_declaration
    [(internal_module name: [(identifier) (nested_identifier)] @name)
     (module name: [(identifier) (nested_identifier)] @name)]))]) @definition.module

; ---------------------------------------------------------------------------------------------------
; base types (only on classes that are captured above, so the owner is the class)

([(class_declaration (class_heritage (extends_clause value: (identifier) @name) @reference.inherits))
  (abstract_class_declaration (class_heritage (extends_clause value: (identifier) @name) @reference.inherits))
  (variable_declarator value: (class (class_heritage (extends_clause value: (identifier) @name) @reference.inherits)))
  (assignment_expression right: (class (class_heritage (extends_clause value: (identifier) @name) @reference.inherits)))
  (export_statement value: (class (class_heritage (extends_clause value: (identifier) @name) @reference.inherits)))])

([(class_declaration (class_heritage
    (extends_clause value: (member_expression property: (property_identifier) @name)) @reference.inherits))
  (abstract_class_declaration (class_heritage
    (extends_clause value: (member_expression property: (property_identifier) @name)) @reference.inherits))
  (variable_declarator value: (class (class_heritage
    (extends_clause value: (member_expression property: (property_identifier) @name)) @reference.inherits)))
  (assignment_expression right: (class (class_heritage
    (extends_clause value: (member_expression property: (property_identifier) @name)) @reference.inherits)))
  (export_statement value: (class (class_heritage
    (extends_clause value: (member_expression property: (property_identifier) @name)) @reference.inherits)))])

; implements I, ns.I, G<T>, ns.G<T>
([(class_declaration (class_heritage (implements_clause
    [(type_identifier) @name
     (nested_type_identifier name: (type_identifier) @name)
     (generic_type name: [(type_identifier) @name (nested_type_identifier name: (type_identifier) @name)])]) @reference.implements))
  (abstract_class_declaration (class_heritage (implements_clause
    [(type_identifier) @name
     (nested_type_identifier name: (type_identifier) @name)
     (generic_type name: [(type_identifier) @name (nested_type_identifier name: (type_identifier) @name)])]) @reference.implements))
  (variable_declarator value: (class (class_heritage (implements_clause
    [(type_identifier) @name
     (nested_type_identifier name: (type_identifier) @name)
     (generic_type name: [(type_identifier) @name (nested_type_identifier name: (type_identifier) @name)])]) @reference.implements)))
  (export_statement value: (class (class_heritage (implements_clause
    [(type_identifier) @name
     (nested_type_identifier name: (type_identifier) @name)
     (generic_type name: [(type_identifier) @name (nested_type_identifier name: (type_identifier) @name)])]) @reference.implements)))])

; interface I extends J, ns.K, G<T>
(interface_declaration
  (extends_type_clause
    [(type_identifier) @name
     (nested_type_identifier name: (type_identifier) @name)
     (generic_type name: [(type_identifier) @name (nested_type_identifier name: (type_identifier) @name)])]) @reference.inherits)

; ---------------------------------------------------------------------------------------------------
; ES imports (also `import type`)

; import fs = require('fs')
(import_statement
  (import_require_clause (identifier) @import.alias source: (string) @import.module)) @reference.import

; ---------------------------------------------------------------------------------------------------
; CommonJS require (one match per form, so no duplicates)

; a class field's initializer `x = require('m')` (TypeScript: public_field_definition; ecmascript-tags.scm has the other places)
(public_field_definition value: [(call_expression function: (identifier) @name arguments: (arguments . (string) @import.module .))
                                 (member_expression object: (call_expression function: (identifier) @name arguments: (arguments . (string) @import.module .))
                                    property: (property_identifier) @import.name)
                                 (subscript_expression object: (call_expression function: (identifier) @name arguments: (arguments . (string) @import.module .)))] @reference.import)

(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name) @reference.binding

; an interface's property (`observers_: Set<IDerivation>` of MobX's IObservable): the type of that attribute
(interface_body
  (property_signature
    name: (property_identifier) @name) @reference.binding)

; a type alias's property (`type QueryObserverMatch = { observer: QueryObserver }`): the same
(type_alias_declaration
  value: (object_type
    (property_signature
      name: (property_identifier) @name) @reference.binding))

(required_parameter
  (accessibility_modifier)
  pattern: (identifier) @name) @reference.binding

(optional_parameter
  (accessibility_modifier)
  pattern: (identifier) @name) @reference.binding

; `export default abstract class X {}` (ecmascript-tags.scm has the other default exports)
(export_statement
  "default"
  declaration: (abstract_class_declaration name: (_) @name)) @reference.export
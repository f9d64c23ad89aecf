; Go definitions, calls, imports and embedded types.
; Captures follow the tags convention documented in graphrag_code/extract.py.
;
; - func -> function; method -> method with @owner = the receiver's type, value or pointer, generic or not
;   (`func (s *Stack[T]) Push` is `Stack.Push`); interface method specs -> method of the interface.
; - `type X struct` -> struct, `type X interface` -> interface, any other named type or alias -> type.
;   A lone `type X ...` declaration is captured whole so the doc comment above `type` is included; inside a
;   grouped `type ( ... )` each spec is its own definition (with the comment directly above it).
; - `name := func(...) {...}` (and `var name = func...`) -> function named after the variable.
; - calls: `f()`, `x.f()` (@receiver `x`, so `pkg.Func()` has receiver `pkg`); composite literals `T{}`,
;   `&T{}` and `pkg.T{}` count as constructor calls to `T` (Go has no `new T()`; `new(T)` is the builtin `new`).
; - imports: one per spec, @import.module = the path without quotes, @import.alias = the local name;
;   `import . "x"` is a wildcard; `import _ "x"` has no alias.
; - embedded struct fields and embedded interfaces -> @reference.inherits (Go has no `implements`).
; - variables bound in a function, and package-level vars -> @reference.binding (their types type receivers:
;   `sq.Area()`, `DefaultRegisterer.Register(c)`).
; Not captured as definitions: consts and package-level vars (other than function literals), methods promoted from
; embedded types.

; ---- functions and methods ---------------------------------------------------------------------------------
(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @owner
        (pointer_type (type_identifier) @owner)
        (generic_type type: (type_identifier) @owner)
        (pointer_type (generic_type type: (type_identifier) @owner))
      ]))
  name: (field_identifier) @name) @definition.method

(method_elem
  name: (field_identifier) @name) @definition.method

; closures bound to a name
(short_var_declaration
  left: (expression_list . (identifier) @name .)
  right: (expression_list . (func_literal) .)) @definition.function

(var_declaration
  (var_spec
    name: (identifier) @name
    value: (expression_list . (func_literal) .))) @definition.function

; ---- types -------------------------------------------------------------------------------------------------
(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @definition.struct
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct

(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @definition.interface
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface

(type_declaration
  . (type_spec
    name: (type_identifier) @name
    type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type) (array_type) (map_type)
           (channel_type) (function_type)]) .) @definition.type
(type_spec
  name: (type_identifier) @name
  type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type) (array_type) (map_type)
         (channel_type) (function_type)]) @definition.type

(type_declaration . (type_alias name: (type_identifier) @name) .) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

; ---- embedded types ----------------------------------------------------------------------------------------
(field_declaration
  !name
  type: [
    (type_identifier) @name
    (pointer_type (type_identifier) @name)
    (qualified_type name: (type_identifier) @name)
    (pointer_type (qualified_type name: (type_identifier) @name))
    (generic_type type: (type_identifier) @name)
  ]) @reference.inherits

(interface_type
  (type_elem . [
    (type_identifier) @name
    (qualified_type name: (type_identifier) @name)
  ] .) @reference.inherits)

; ---- calls -------------------------------------------------------------------------------------------------
(call_expression
  function: (identifier) @name) @reference.call

(call_expression
  function: (selector_expression
    operand: (_) @receiver
    field: (field_identifier) @name)) @reference.call

; explicit instantiation with one argument parses as a conversion: Map[int](xs), pkg.Map[int](xs)
(type_conversion_expression
  type: (generic_type type: (type_identifier) @name)) @reference.call
(type_conversion_expression
  type: (generic_type type: (qualified_type
    package: (package_identifier) @receiver
    name: (type_identifier) @name))) @reference.call

; composite literals as constructor calls
(composite_literal
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ]) @reference.call

(composite_literal
  type: (qualified_type
    package: (package_identifier) @receiver
    name: (type_identifier) @name)) @reference.call

; ---- variables bound in a function (@reference.binding): what may tell a receiver's type (`sq := Square{}`,
; `var sq Square`, `sq := NewSquare()`); every other binding of a name is captured too (`a, b := f()`, `range`
; targets), so that a name bound to something unknown, or to two types, is left untyped in the function
(short_var_declaration left: (expression_list (identifier) @name)) @reference.binding
(assignment_statement left: (expression_list (identifier) @name)) @reference.binding
(var_spec name: (identifier) @name) @reference.binding
(range_clause left: (expression_list (identifier) @name)) @reference.binding
(receive_statement left: (expression_list (identifier) @name)) @reference.binding
(type_switch_statement alias: (expression_list (identifier) @name)) @reference.binding
(func_literal parameters: (parameter_list (parameter_declaration name: (identifier) @name))) @reference.binding

; ---- imports -----------------------------------------------------------------------------------------------
(import_spec
  !name
  path: (_) @import.module) @reference.import

(import_spec
  name: (package_identifier) @import.alias
  path: (_) @import.module) @reference.import

(import_spec
  name: (blank_identifier)
  path: (_) @import.module) @reference.import

(import_spec
  name: (dot) @import.wildcard
  path: (_) @import.module) @reference.import

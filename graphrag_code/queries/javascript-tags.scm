; JavaScript (.js .jsx .mjs .cjs) definitions, calls, imports and base classes.
; Captures follow the tree-sitter tags convention of graphrag_code/extract.py (module docstring).
; What TypeScript shares with it is in ecmascript-tags.scm, loaded first:
; inherits: ecmascript
;
; Definitions are captured on the whole statement (export_statement / lexical_declaration /
; variable_declaration / expression_statement) so that JSDoc comments above it and the `export`
; keyword are inside the range; when both the bare and the wrapped form match, the engine keeps the
; wider one. Function-valued assignments are definitions named by their whole left-hand side
; (`app.use = function use() {}` -> `app.use`, `module.exports = function () {}` -> `module.exports`).
; A named function expression passed to a call at the top level of a module is a definition by its own
; name (`defineGetter(req, 'protocol', function protocol() {})`: Express defines its request getters so).
; Not captured: functions in object literals other than a top-level one's (ecmascript-tags.scm), `this.x = function`
; assignments, anonymous or nested callbacks, computed method names (`[Symbol.iterator]()`).

; ---------------------------------------------------------------------------------------------------
; functions and classes

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

(class_declaration
  name: (identifier) @name) @definition.class

(export_statement
  declaration: [(function_declaration name: (identifier) @name)
                (generator_function_declaration name: (identifier) @name)]) @definition.function

(export_statement
  declaration: (class_declaration name: (identifier) @name)) @definition.class

; `const f = () => {}`, `let f = function () {}`, `var f = function* () {}`; also `const K = class {}`
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]))) @definition.function

(export_statement
  declaration: (variable_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]))) @definition.function

([(lexical_declaration (variable_declarator name: (identifier) @name value: (class)))
  (variable_declaration (variable_declarator name: (identifier) @name value: (class)))
  (export_statement declaration: (lexical_declaration
    (variable_declarator name: (identifier) @name value: (class))))]) @definition.class

(expression_statement
  (assignment_expression
    left: [(identifier)
           (member_expression object: [(identifier) (member_expression)])] @name
    right: (class))) @definition.class

(program
  (expression_statement
    (call_expression
      arguments: (arguments (function_expression name: (identifier) @name)))) @definition.function)

; class members: methods, getters/setters, static methods, generators, and fields holding functions
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name) @definition.function)

(class_body
  (field_definition
    property: [(property_identifier) (private_property_identifier)] @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)

; ---------------------------------------------------------------------------------------------------
; base classes (only on classes that are captured above, so the owner is the class)

([(class_declaration (class_heritage (identifier) @name) @reference.inherits)
  (variable_declarator value: (class (class_heritage (identifier) @name) @reference.inherits))
  (assignment_expression right: (class (class_heritage (identifier) @name) @reference.inherits))
  (export_statement value: (class (class_heritage (identifier) @name) @reference.inherits))])

([(class_declaration (class_heritage (member_expression property: (property_identifier) @name)) @reference.inherits)
  (variable_declarator value: (class (class_heritage (member_expression property: (property_identifier) @name)) @reference.inherits))
  (assignment_expression right: (class (class_heritage (member_expression property: (property_identifier) @name)) @reference.inherits))
  (export_statement value: (class (class_heritage (member_expression property: (property_identifier) @name)) @reference.inherits))])

; ---------------------------------------------------------------------------------------------------
; CommonJS require (one match per form, so no duplicates)

; a class field's initializer `x = require('m')` (JavaScript: field_definition; ecmascript-tags.scm has the other places)
(field_definition value: [(call_expression function: (identifier) @name arguments: (arguments . (string) @import.module .))
                          (member_expression object: (call_expression function: (identifier) @name arguments: (arguments . (string) @import.module .))
                             property: (property_identifier) @import.name)
                          (subscript_expression object: (call_expression function: (identifier) @name arguments: (arguments . (string) @import.module .)))] @reference.import)


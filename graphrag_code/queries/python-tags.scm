; Python definitions, calls, imports and base classes.
; Captures follow the tree-sitter tags convention (see graphrag_code/queries/README.md).

(decorated_definition
  definition: (function_definition name: (identifier) @name)) @definition.function

(function_definition
  name: (identifier) @name) @definition.function

(decorated_definition
  definition: (class_definition name: (identifier) @name)) @definition.class

(class_definition
  name: (identifier) @name) @definition.class

; module-level `name = lambda ...`
(module
  (assignment left: (identifier) @name right: (lambda)) @definition.function)

(class_definition
  superclasses: (argument_list (identifier) @name @reference.inherits))
(class_definition
  superclasses: (argument_list (attribute attribute: (identifier) @name) @reference.inherits))

(call
  function: (identifier) @name) @reference.call

(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @name)) @reference.call

; `self.total` / `cls.total`: an implicit call when `total` is a property of the same file (extract.py decides)
(attribute
  object: (identifier) @receiver
  attribute: (identifier) @name
  (#any-of? @receiver "self" "cls")) @reference.read

(import_statement
  name: (dotted_name) @import.module) @reference.import

(import_statement
  name: (aliased_import
    name: (dotted_name) @import.module
    alias: (identifier) @import.alias)) @reference.import

(import_from_statement
  module_name: (_) @import.module
  name: (dotted_name) @import.name) @reference.import

(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias)) @reference.import

(import_from_statement
  module_name: (_) @import.module
  (wildcard_import) @import.wildcard) @reference.import

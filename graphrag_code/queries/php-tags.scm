; PHP definitions, calls, `use` imports and base types.
; Captures follow the tree-sitter tags convention (see the docstring of graphrag_code/extract.py).
; Attributes `#[...]` are inside the declaration nodes; `/** docblocks */` directly above are added by the
; engine (LanguageSpec.leading_types). A statement namespace `namespace App\Shop;` is a one-line module that
; does not qualify the declarations after it; a braced `namespace App { ... }` does.
; Imports: `use A\B\C as D;` -> module `A\B\C`, name `C`, alias `D` (like Java); group uses
; `use A\B\{C, E as F};` -> module `A\B` (the group prefix), name `C` / `E`.
; `require_once 'lib/x.php';` (and include/require/include_once) with a literal path -> module `lib/x.php`.
; Not captured: properties, constants, computed include paths (`__DIR__ . '/x.php'`), dynamic calls `$f()`
; other than closures bound to a variable, `new class {}`.

; ---- definitions --------------------------------------------------------------------------------------------
(namespace_definition
  name: (namespace_name) @name) @definition.module

(class_declaration
  name: (name) @name) @definition.class

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.trait

(enum_declaration
  name: (name) @name) @definition.enum

(function_definition
  name: (name) @name) @definition.function

; methods, also the bodiless ones of interfaces and abstract classes
(method_declaration
  name: (name) @name) @definition.method

; closures bound to a variable: `$f = function () {...};`, `$g = fn ($x) => ...;`
(assignment_expression
  left: (variable_name) @name
  right: [(anonymous_function) (arrow_function)]) @definition.function

; ---- base types ---------------------------------------------------------------------------------------------
(base_clause [(name) @name (qualified_name (name) @name)] @reference.inherits)
(class_interface_clause [(name) @name (qualified_name (name) @name)] @reference.implements)
; `use SomeTrait;` inside a class body
(use_declaration [(name) @name (qualified_name (name) @name)] @reference.implements)

; ---- calls --------------------------------------------------------------------------------------------------
; foo(), \App\Support\format_price() (receiver: the namespace prefix); not `isset($x)`, `empty($x)`, `die()`:
; the grammar reads those language constructs as calls, which no definition can answer
(function_call_expression
  function: (name) @name
  (#not-match? @name "^(isset|empty|die)$")) @reference.call

(function_call_expression
  function: (qualified_name (namespace_name) @receiver (name) @name)) @reference.call

; \count($x), \helper(): a name of the global namespace; namespace\f(): of the current one
(function_call_expression
  function: (qualified_name . (name) @name .)) @reference.call

(function_call_expression
  function: (relative_name (name) @name)) @reference.call

; $f() where $f holds a closure
(function_call_expression
  function: (variable_name) @name) @reference.call

; $this->bar(), $obj?->bar()
(member_call_expression
  object: (_) @receiver
  name: (name) @name) @reference.call

(nullsafe_member_call_expression
  object: (_) @receiver
  name: (name) @name) @reference.call

; Foo::create(), parent::__construct(), self::make(), static::make()
(scoped_call_expression
  scope: (_) @receiver
  name: (name) @name) @reference.call

; new Foo(), new \App\Db\Repo(): a call to the class
(object_creation_expression [(name) @name (qualified_name (name) @name)]) @reference.call

; ---- local variables (@reference.binding): what they are assigned types receivers (`$x = new Foo(); $x->m()`)
(assignment_expression left: (variable_name (name) @name)) @reference.binding
; `foreach ($definition->getOptions() as $option)`: an item of what it iterates (`@return InputOption[]`)
(foreach_statement
  . (_)
  . [(variable_name (name) @name)
     (pair (_) (variable_name (name) @name) .)
     (by_ref (variable_name (name) @name))]) @reference.binding
; `catch (\RuntimeException $e)`: the class caught (of one type only)
(catch_clause name: (variable_name (name) @name)) @reference.binding
; properties a method assigns (`$this->definition = new InputDefinition()`): an untyped one is typed by them
(assignment_expression
  left: (member_access_expression object: (variable_name (name) @_this) name: (name) @name)
  (#eq? @_this "this")) @reference.binding

; ---- imports ------------------------------------------------------------------------------------------------
(namespace_use_declaration
  (namespace_use_clause
    . (qualified_name (name) @import.name) @import.module
    alias: (name)? @import.alias)) @reference.import

(namespace_use_declaration
  (namespace_use_clause
    . (name) @import.module @import.name
    alias: (name)? @import.alias)) @reference.import

(namespace_use_declaration
  (namespace_name) @import.module
  (namespace_use_group
    (namespace_use_clause
      . [(name) (qualified_name)] @import.name
      alias: (name)? @import.alias))) @reference.import

; `require_once 'lib/x.php';`, `include('x.php');` with a literal path
(include_expression
  [(string . (string_content) @import.module .)
   (encapsed_string . (string_content) @import.module .)
   (parenthesized_expression [(string . (string_content) @import.module .)
                              (encapsed_string . (string_content) @import.module .)])]) @reference.import

(include_once_expression
  [(string . (string_content) @import.module .)
   (encapsed_string . (string_content) @import.module .)
   (parenthesized_expression [(string . (string_content) @import.module .)
                              (encapsed_string . (string_content) @import.module .)])]) @reference.import

(require_expression
  [(string . (string_content) @import.module .)
   (encapsed_string . (string_content) @import.module .)
   (parenthesized_expression [(string . (string_content) @import.module .)
                              (encapsed_string . (string_content) @import.module .)])]) @reference.import

(require_once_expression
  [(string . (string_content) @import.module .)
   (encapsed_string . (string_content) @import.module .)
   (parenthesized_expression [(string . (string_content) @import.module .)
                              (encapsed_string . (string_content) @import.module .)])]) @reference.import

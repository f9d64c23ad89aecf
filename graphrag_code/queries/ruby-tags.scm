; Ruby definitions, calls, requires and mixins.
; Captures follow the tree-sitter tags convention (see the docstring of graphrag_code/extract.py).
; Only `call` nodes are calls: a bare identifier without arguments (`foo`) may be a local variable or a
; method call, so it is not captured. `require`/`include` are captured as imports/mixins, not as calls.
; Methods inside `class << self` belong to the class. Not definitions: `define_method`, `Struct.new`,
; `lambda { }` / `proc { }` blocks (only `name = ->(x) { }` is), attr_* accessors, constants.

(module
  name: [(constant) (scope_resolution)] @name) @definition.module

(class
  name: [(constant) (scope_resolution)] @name) @definition.class

; `def x` (a method inside a class/module; a function at top level)
(method
  name: (_) @name) @definition.function

; `def self.x`: a singleton (class) method
(singleton_method
  name: (_) @name) @definition.method

; `handler = ->(x) { ... }`
(assignment
  left: (identifier) @name
  right: (lambda)) @definition.function

; `class Invoice < Record`, `class Note < Billing::Invoice`
(class
  superclass: (superclass (constant) @name) @reference.inherits)
(class
  superclass: (superclass (scope_resolution name: (constant) @name)) @reference.inherits)

; `include Mod`, `extend Mod`, `prepend Mod` inside a class or module body
((call
   !receiver
   method: (identifier)
   arguments: (argument_list [(constant) @name (scope_resolution name: (constant) @name)])) @reference.implements
 (#match? @reference.implements "^(include|extend|prepend)[ (]"))

; calls: `foo(x)`, `foo x`, `obj.bar`, `Foo.new`, `Mod::Thing.call(x)`
((call
   !receiver
   method: [(identifier) (constant)] @name) @reference.call
 (#not-match? @name "^(require|require_relative|include|extend|prepend)$"))

(call
  receiver: (_) @receiver
  method: [(identifier) (constant)] @name) @reference.call

; `super` and `super(x)`: a call of the method they are in, on the superclass (extract.py: add_super)
(super) @reference.super

; a bare name where a value goes (`audit` after `super`, `x = compute`, `log if ready`): a call of a method
; without arguments, unless the method binds it as a local variable or parameter (extract.py: add_bare)
(body_statement (identifier) @name @reference.bare)
(block_body (identifier) @name @reference.bare)
(then (identifier) @name @reference.bare)
(else (identifier) @name @reference.bare)
(if_modifier body: (identifier) @name @reference.bare)
(unless_modifier body: (identifier) @name @reference.bare)
(assignment right: (identifier) @name @reference.bare)
(method body: (identifier) @name @reference.bare)
(argument_list (identifier) @name @reference.bare)
(array (identifier) @name @reference.bare)

; `require 'json'`, `require_relative 'support/money'`
((call
   !receiver
   method: (identifier) @name
   arguments: (argument_list . (string . (string_content) @import.module .) .)) @reference.import
 (#match? @name "^(require|require_relative)$"))

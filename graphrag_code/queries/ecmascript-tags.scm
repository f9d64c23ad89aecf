; Patterns JavaScript and TypeScript share (their grammars have the same node types for these): definitions
; assigned to members and exports, calls, ES imports and re-exports, CommonJS require, bindings, default exports.
; javascript-tags.scm and typescript-tags.scm load this file through their `; inherits: ecmascript` line; it is
; no language of its own. Captures follow the tree-sitter tags convention (see the language files).

; ---------------------------------------------------------------------------------------------------
; definitions assigned to members and exports

; `export default function () {}` / `export default () => {}` / `export default class {}`: named "default"
(export_statement
  "default" @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.function

(export_statement
  "default" @name
  value: (class)) @definition.class

; `var proto = module.exports = function (options) {}`: named by the variable
([(lexical_declaration
   (variable_declarator
     name: (identifier) @name
     value: (assignment_expression right: [(arrow_function) (function_expression) (generator_function)])))
  (variable_declaration
   (variable_declarator
     name: (identifier) @name
     value: (assignment_expression right: [(arrow_function) (function_expression) (generator_function)])))]) @definition.function

; `app.use = function use(fn) {}`, `exports.render = (a) => ...`, `module.exports = function () {}`,
; `Foo.prototype.bar = function () {}`: named by the whole left-hand side (not `this.x = ...`)
(expression_statement
  (assignment_expression
    left: [(identifier)
           (member_expression object: [(identifier) (member_expression)])] @name
    right: [(arrow_function) (function_expression) (generator_function)])) @definition.function

; `const api = { run() {}, stop: () => {}, go: function () {} }` (a top-level declaration, exported or not) and
; `module.exports = { run() {} }`, `Foo.prototype = { run() {} }`: each function of the object literal, named by the
; variable or the left-hand side and its key (`api.run`, as `api.run = function` would be)
(program
  [(lexical_declaration (variable_declarator name: (identifier) @owner value: (object
        [(method_definition name: (property_identifier) @name)
         (pair key: (property_identifier) @name
               value: [(arrow_function) (function_expression) (generator_function)])] @definition.function)))
   (variable_declaration (variable_declarator name: (identifier) @owner value: (object
        [(method_definition name: (property_identifier) @name)
         (pair key: (property_identifier) @name
               value: [(arrow_function) (function_expression) (generator_function)])] @definition.function)))
   (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @owner value: (object
        [(method_definition name: (property_identifier) @name)
         (pair key: (property_identifier) @name
               value: [(arrow_function) (function_expression) (generator_function)])] @definition.function))))
   (export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @owner value: (object
        [(method_definition name: (property_identifier) @name)
         (pair key: (property_identifier) @name
               value: [(arrow_function) (function_expression) (generator_function)])] @definition.function))))
   (expression_statement
     (assignment_expression
       left: [(identifier) (member_expression object: [(identifier) (member_expression)])] @owner
       right: (object
        [(method_definition name: (property_identifier) @name)
         (pair key: (property_identifier) @name
               value: [(arrow_function) (function_expression) (generator_function)])] @definition.function)))])

; `return { batch: (cb) => ..., run() {} }` in TanStack Query's createNotifyManager (Redux's createStore, any
; factory of an object of closures): each function of an object literal a function returns is a member of that
; function (`createNotifyManager.batch`), as the functions it defines are
(return_statement
  [(object
     [(method_definition name: (property_identifier) @name)
      (pair key: (property_identifier) @name
            value: [(arrow_function) (function_expression) (generator_function)])] @definition.function)
   (parenthesized_expression (object
     [(method_definition name: (property_identifier) @name)
      (pair key: (property_identifier) @name
            value: [(arrow_function) (function_expression) (generator_function)])] @definition.function))])

; `const f = (() => {})`, `export const isLike = (<T>(x: any): x is T => ...)`: a function in parentheses
([(lexical_declaration
   (variable_declarator
     name: (identifier) @name
     value: (parenthesized_expression [(arrow_function) (function_expression) (generator_function)])))
  (variable_declaration
   (variable_declarator
     name: (identifier) @name
     value: (parenthesized_expression [(arrow_function) (function_expression) (generator_function)])))
  (export_statement declaration: (lexical_declaration
   (variable_declarator
     name: (identifier) @name
     value: (parenthesized_expression [(arrow_function) (function_expression) (generator_function)]))))
  (export_statement declaration: (variable_declaration
   (variable_declarator
     name: (identifier) @name
     value: (parenthesized_expression [(arrow_function) (function_expression) (generator_function)]))))]) @definition.function

; `exports = module.exports = function () {}`: named by the innermost left-hand side
(expression_statement
  (assignment_expression
    right: (assignment_expression
      left: [(identifier)
             (member_expression object: [(identifier) (member_expression)])] @name
      right: [(arrow_function) (function_expression) (generator_function)]))) @definition.function

; `res.set = res.header = function header() {}`: the function, named by the innermost left-hand side, is `res.set`
; too (extract.py: add_alias)
(expression_statement
  (assignment_expression
    left: (member_expression object: [(identifier) (member_expression)]) @name
    right: (assignment_expression
      right: [(arrow_function) (function_expression) (generator_function)]))) @reference.alias

; what a function returns: `return this` (a method handing its object on, `res.status(404).send()`), `return new
; Builder()` and the like (extract.py: add_returned)
(return_statement (_) @_value) @reference.returns

; `describe('QueryCache', () => {...})`, `it('finds a query', async () => {...})`, `test.skip(...)`: a test, or a suite
; of them, of jest, vitest, mocha, jasmine or node:test is a definition named by its runner and its title (`it finds
; a query`: extract.py, _test_title), so the calls in it are its calls and impact names the tests a change reaches
(call_expression
  function: [(identifier) @_runner
             (member_expression object: (identifier) @_runner property: (property_identifier))]
  arguments: (arguments . [(string) (template_string)] @name
                          [(arrow_function) (function_expression)])
  (#match? @_runner "^(describe|context|suite|it|test|specify|fdescribe|xdescribe|fit|xit)$")) @definition.function

; ---------------------------------------------------------------------------------------------------
; calls (`require(...)` is an import, not a call; `import(...)` is no call; `super(...)` in a constructor calls
; the base class, as `new Base()` does: @reference.chain)

(call_expression function: (super) @name) @reference.chain

(call_expression
  function: (identifier) @name
  (#not-eq? @name "require")) @reference.call

(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call

(new_expression
  constructor: (identifier) @name) @reference.call

; a decorator named without arguments (`@logged`, `@observable.ref`): called with what it decorates when the class
; is defined, as `@Injectable({...})` (a call_expression) is; it made no call (a tenth QA pass)
(decorator (identifier) @name) @reference.call

(decorator
  (member_expression
    object: (_) @receiver
    property: (property_identifier) @name)) @reference.call

(new_expression
  constructor: (member_expression
    object: (_) @receiver
    property: (property_identifier) @name)) @reference.call

; ---------------------------------------------------------------------------------------------------
; ES imports and re-exports

; import x from 'm'  -> alias x (the module's default export)
(import_statement
  (import_clause (identifier) @import.alias)
  source: (string) @import.module) @reference.import

; import * as ns from 'm'
(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string) @import.module) @reference.import

; import {a, b as c} from 'm'
(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @import.name !alias)))
  source: (string) @import.module) @reference.import

(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @import.name alias: (identifier) @import.alias)))
  source: (string) @import.module) @reference.import

; import 'side-effect'
(import_statement
  . (string) @import.module) @reference.import

; re-exports: export {a, b as c} from 'm'; export * from 'm'; export * as ns from 'm'
(export_statement
  (export_clause (export_specifier name: (_) @import.name !alias))
  source: (string) @import.module) @reference.import

(export_statement
  (export_clause (export_specifier name: (_) @import.name alias: (_) @import.alias))
  source: (string) @import.module) @reference.import

(export_statement
  "*" @import.wildcard
  source: (string) @import.module) @reference.import

(export_statement
  (namespace_export (_) @import.alias)
  source: (string) @import.module) @reference.import

; import('m')
(call_expression
  function: (import)
  arguments: (arguments . (string) @import.module .)) @reference.import

; ---------------------------------------------------------------------------------------------------
; CommonJS require (one match per form, so no duplicates)

; const x = require('m')
(variable_declarator
  name: (identifier) @import.alias
  value: (call_expression
    function: (identifier) @name
    arguments: (arguments . (string) @import.module .))
  (#eq? @name "require")) @reference.import

; const {a, b: c} = require('m')
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression
    function: (identifier) @name
    arguments: (arguments . (string) @import.module .))
  (#eq? @name "require")) @reference.import

(variable_declarator
  name: (object_pattern (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias))
  value: (call_expression
    function: (identifier) @name
    arguments: (arguments . (string) @import.module .))
  (#eq? @name "require")) @reference.import

; const x = require('m').y
(variable_declarator
  name: (identifier) @import.alias
  value: (member_expression
    object: (call_expression
      function: (identifier) @name
      arguments: (arguments . (string) @import.module .))
    property: (property_identifier) @import.name)
  (#eq? @name "require")) @reference.import

; ---------------------------------------------------------------------------------------------------
; bindings

; what may tell a receiver's class (resolve.receiver_class; extract.py: add_binding): a variable's initializer
; (`const layer = new Layer()`), `this.x = ...`, a `for...of` target
(variable_declarator
  name: (identifier) @name) @reference.binding

; `const { count, delay } = config`: the names a destructuring declaration binds (untyped; in the function they hide
; a module's or an import's of the same name)
(variable_declarator
  name: [(object_pattern) (array_pattern)] @name) @reference.binding

(assignment_expression
  left: (member_expression
    object: (this) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.binding

(for_in_statement
  left: (identifier) @name) @reference.binding

; ---------------------------------------------------------------------------------------------------
; default exports

; `module.exports = Layer;`, `exports = module.exports = createApplication;`, `export default Router;`: the file's
; default export is its definition of that name (resolve.py: _default_export)
(expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    right: (identifier) @name)
  (#eq? @_module "module") (#eq? @_exports "exports")) @reference.export

(expression_statement
  (assignment_expression
    right: (assignment_expression
      left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
      right: (identifier) @name))
  (#eq? @_module "module") (#eq? @_exports "exports")) @reference.export

(export_statement
  value: (identifier) @name) @reference.export

(export_statement
  "default"
  declaration: [(class_declaration name: (_) @name)
                (function_declaration name: (identifier) @name)]) @reference.export

; `export { a, B as Bee }` (not a re-export `export { x } from './y'`): each local name listed is exported
; (extract.py: finish_exports)
(export_statement
  !source
  (export_clause (export_specifier name: (identifier) @name))) @reference.exported

; require(...), require(...).name or require(...)[key] anywhere else: module (and name) only. Where "anywhere else"
; is, extract.py decides (_REQUIRE_CONTEXTS: a statement, an argument, a callee, an assigned or returned value, an
; operand; never a form inside another one, nor a declarator's value the patterns above take): the 17 contexts spelled
; out in one pattern here had cost 0.14 s of query compiling per process
((call_expression function: (identifier) @name arguments: (arguments . (string) @import.module .))
   @reference.import @_require
 (#eq? @name "require"))
((member_expression object: (call_expression function: (identifier) @name arguments: (arguments . (string) @import.module .))
                    property: (property_identifier) @import.name) @reference.import @_require
 (#eq? @name "require"))
((subscript_expression object: (call_expression function: (identifier) @name arguments: (arguments . (string) @import.module .)))
   @reference.import @_require
 (#eq? @name "require"))

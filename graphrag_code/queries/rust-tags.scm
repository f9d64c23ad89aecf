; Rust definitions, calls, imports and trait relations.
; Captures follow the tags convention documented in graphrag_code/extract.py.
;
; - fn -> function (a fn inside an impl or trait becomes a method through LanguageSpec.container_kinds;
;   bodiless trait/extern signatures are captured too); struct, union -> struct; enum; trait; type alias -> type;
;   mod -> module (its fns stay functions: LanguageSpec.namespace_kinds).
; - impl blocks -> impl with @name = the implementing type (`impl<T> Stack<T>` is `Stack`); the engine scopes
;   the methods inside by the impl's name, so they are `Type.method`. `impl Trait for &Type` is `Type`; impls for
;   slices, tuples, `dyn Trait` and other unnamed types are not captured (their fns stay plain functions).
; - `impl Trait for Type` -> @reference.implements named by the trait (owner = the impl);
;   supertraits `trait A: B + C` -> @reference.inherits.
; - `#[...]` attributes and `///` doc comments directly above are added by the engine (leading_types).
; - calls: `f()`, `x.f()` / `self.f()` (@receiver `x` / `self`), `Type::new()` / `module::f()` (@receiver
;   `Type` / `module`), turbofish `f::<T>()`; struct literals `Type { .. }` count as constructor calls to
;   `Type` (like Go composite literals).
; - macros: `macro_rules! square` -> macro; `square!(x)` -> a call of it (implicit "macro": nothing when the
;   repository defines no such macro, as for `println!`); the calls in a macro's arguments and in a rule's
;   expansion: @reference.macro_args / macro_body hand the engine the token tree, which tree-sitter does not parse
;   as expressions, and extract._token_calls parses it again (`assert_eq!(total(&[o]), 3)` calls `total`).
; - imports: one per imported name. `use a::b::C;` -> module `a::b`, name `C`; `use a::b::{c, d as e};` ->
;   (a::b, c) and (a::b, d, alias e); `use a::b::{self}` -> module `a::b`; `use a::*;` -> module `a`, wildcard;
;   `use a;` / `extern crate a;` -> module `a`; groups nested at any depth (`use a::{b::{self, C}}`).
; Not captured (known gaps): consts, statics, closures, a macro's
; `#[macro_export]` path (`crate::square!` reaches it by name only).

; ---- functions ---------------------------------------------------------------------------------------------
(function_item
  name: (identifier) @name) @definition.function

(function_signature_item
  name: (identifier) @name) @definition.function

; ---- types -------------------------------------------------------------------------------------------------
(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(trait_item
  name: (type_identifier) @name) @definition.trait

(type_item
  name: (type_identifier) @name) @definition.type

(mod_item
  name: (identifier) @name) @definition.module

(impl_item
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
    (reference_type type: [
      (type_identifier) @name
      (generic_type type: (type_identifier) @name)
      (scoped_type_identifier name: (type_identifier) @name)
    ])
  ]) @definition.impl

; ---- trait relations ---------------------------------------------------------------------------------------
(impl_item
  trait: [
    (type_identifier) @name
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
  ] @reference.implements)

(trait_item
  bounds: (trait_bounds
    [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type type: (type_identifier) @name)
      (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
    ] @reference.inherits))

; ---- calls -------------------------------------------------------------------------------------------------
(call_expression
  function: [
    (identifier) @name
    (generic_function function: (identifier) @name)
  ]) @reference.call

(call_expression
  function: [
    (field_expression value: (_) @receiver field: (field_identifier) @name)
    (generic_function function: (field_expression value: (_) @receiver field: (field_identifier) @name))
  ]) @reference.call

(call_expression
  function: [
    (scoped_identifier path: (_) @receiver name: (identifier) @name)
    (generic_function function: (scoped_identifier path: (_) @receiver name: (identifier) @name))
  ]) @reference.call

; struct literals as constructor calls (`Self { .. }` names no type and is skipped)
((struct_expression
  name: [
    (type_identifier) @name
    (generic_type_with_turbofish type: (type_identifier) @name)
  ]) @reference.call
  (#not-eq? @name "Self"))

(struct_expression
  name: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name)) @reference.call

; ---- macros (extract._token_calls) -------------------------------------------------------------------------
(macro_definition
  name: (identifier) @name) @definition.macro

; `square!(x)`: a call of the macro_rules! `square` where the repository has one, else nothing (std's, a crate's)
(macro_invocation
  macro: (identifier) @name) @reference.macro_call

(macro_invocation
  macro: (scoped_identifier name: (identifier) @name)) @reference.macro_call

; the calls in a macro's arguments are the enclosing definition's, those in a rule's expansion the macro's
(macro_invocation
  (token_tree) @args) @reference.macro_args

(macro_rule
  right: (token_tree) @args) @reference.macro_body

; ---- imports -----------------------------------------------------------------------------------------------
; a `use` declaration's tree, flattened by the engine into one import per name (extract._Builder.add_use)
(use_declaration argument: (_) @args) @reference.use

(extern_crate_declaration
  name: (identifier) @import.module) @reference.import

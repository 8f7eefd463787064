; Rust. Doc comments are `///` and `/** */` before an item; attributes may
; stand between. `//!` at the top of a file is the header comment.
;
; Definitions are items, at any depth: functions (also nested in functions),
; methods of impl and trait blocks (owned by the impl's type or the trait),
; structs, unions, enums (their variants as constants), traits, type aliases
; and associated types, constants and statics, struct and union fields,
; `macro_rules!` macros (as functions). `impl` blocks and inline `mod`
; blocks own what they hold without being elements (`@scope`), so an owner
; chain reads `outer_mod.Type`. Supertypes: a trait's supertraits, and the
; traits a type of the file implements (`impl Trait for Type`). Constants
; and statics are captured wherever they stand: the engine keeps those at
; module level and in impl/trait blocks, and drops those in a function or a
; closure (`@local.scope`).
; Items inside macro invocations (`cfg_rt! { pub struct LocalSet … }`,
; `thread_local! { static X … }`) are token trees to the grammar: when the
; braces of a macro open on an item (or on such a macro), its name, `!` and
; braces are blanked (`@mask`) and the file is read again (kept when it finds more
; definitions). A token tree with `#name` or `#(…)` is a template
; (`quote! { pub fn #name() }`), not items.

((line_comment) @header (#match? @header "^//!"))
((block_comment) @header (#match? @header "^/\\*!"))

((line_comment) @doc (#match? @doc "^///"))
((block_comment) @doc (#match? @doc "^/\\*\\*"))
(attribute_item) @attribute

((macro_invocation
   macro: [(identifier) (scoped_identifier)] @mask
   "!" @mask
   (token_tree "{" @mask "}" @mask) @_items)
  (#match? @_items "^\\{\\s*(///|#\\[|(pub|struct|enum|union|fn|impl|trait|mod|use|const|static|type|unsafe|async|extern)\\b|[A-Za-z_][A-Za-z0-9_:]*!\\s*\\{)")
  (#not-match? @_items "#[A-Za-z_(]"))

; Imports: the path of each `use`, and `extern crate`.
(use_declaration argument: (_) @import)
(extern_crate_declaration name: (identifier) @import)

; Functions, by where they stand (one pattern per parent, so that a function
; is a method exactly when it is in an impl or trait block): at file level,
; in a `mod` block, nested in a block (a function body, a const block), and
; declared in an `extern` block.
(source_file
  (function_item name: (identifier) @name body: (block) @body) @definition.function)
(mod_item
  body: (declaration_list
    (function_item name: (identifier) @name body: (block) @body) @definition.function))
(block
  (function_item name: (identifier) @name body: (block) @body) @definition.function)
(foreign_mod_item
  body: (declaration_list
    (function_signature_item name: (identifier) @name) @definition.function))

; Methods: functions of impl blocks, and of trait blocks (provided or
; required).
(impl_item
  body: (declaration_list
    (function_item name: (identifier) @name body: (block) @body) @definition.method))
(trait_item
  body: (declaration_list
    [
      (function_item name: (identifier) @name body: (block) @body)
      (function_signature_item name: (identifier) @name)
    ] @definition.method))

; `macro_rules!` macros, as functions; the signature is `macro_rules! name`.
(macro_definition name: (identifier) @name) @definition.function

; impl blocks own their items, named after the implementing type without its
; path or generic arguments (`impl<T> fmt::Display for a::Foo<T>` -> `Foo`);
; other types (`&T`, `[T]`, `dyn Trait`, tuples) keep their text. The trait
; of `impl Trait for Type` is a supertype of the file's type of that name.
(impl_item
  trait: (_)? @supertype
  type: [
    (type_identifier) @name
    (primitive_type) @name
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)])
    (reference_type) @name
    (pointer_type) @name
    (array_type) @name
    (tuple_type) @name
    (function_type) @name
    (dynamic_type) @name
    (abstract_type) @name
    (unit_type) @name
    (never_type) @name
  ]) @scope

; Inline modules own their items (`mod tests { ... }`); `mod x;` holds none.
(mod_item name: (identifier) @name body: (declaration_list)) @namespace

; Closures are local scopes: a const or static inside one is a local.
(closure_expression) @local.scope

; Structs, unions, enums, traits.
(struct_item name: (type_identifier) @name body: (_)? @body) @definition.struct
(union_item name: (type_identifier) @name body: (_) @body) @definition.struct
(enum_item name: (type_identifier) @name body: (_) @body) @definition.enum
(trait_item name: (type_identifier) @name body: (_) @body) @definition.trait
; Supertraits: `trait Bar: Clone + fmt::Debug` (not lifetimes, `?Sized` or
; `for<'a>` bounds).
(trait_item
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @supertype)) @definition.trait

; Type aliases and associated types (`type Item = u8;` in an impl,
; `type Item;` in a trait), owned by their impl or trait.
(type_item name: (type_identifier) @name type: (_) @body) @definition.type
(associated_type name: (type_identifier) @name) @definition.type

; Constants (also associated ones, in impl and trait blocks) and statics,
; wherever they stand: the engine drops those inside functions. `const _`
; names nothing.
((const_item name: (identifier) @name value: (_)? @body) @definition.constant
  (#not-eq? @name "_"))
(static_item name: (identifier) @name value: (_)? @body) @definition.variable

; Struct and union fields (tuple-struct fields have no name), and enum
; variants, as constants of their enum (the signature keeps a tuple
; variant's types: `Some(T)`).
(field_declaration name: (field_identifier) @name) @definition.field
(enum_variant name: (identifier) @name) @definition.constant

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the function, method, type or impl block
; around it as `in`):
; - calls by the called name: `f(…)`, `self.sink.write_all(…)`,
;   `serde_json::to_string(…)`, `Vec::<u8>::new()`, `parse::<T>(…)`; macros
;   (`println!`) and the calls in their arguments (below); struct literals
;   (`Writer { … }`, not `Self { … }`), Rust's constructors;
; - types: every type name (`Self` left out), and the type of a path call
;   (`Writer::new(…)`, `Outcome::Written(…)`: a capitalized path);
; - imports: each name a `use` brings in (`HashMap` of
;   `use std::collections::HashMap`, `Write` of `{self, Write as W}`), and
;   `extern crate` names.
(call_expression
  function: [(identifier) @name
             (field_expression field: (field_identifier) @name)
             (scoped_identifier name: (identifier) @name)
             (generic_function
               function: [(identifier) @name
                          (field_expression field: (field_identifier) @name)
                          (scoped_identifier name: (identifier) @name)])]) @reference.call
((call_expression
   function: (scoped_identifier
     path: [(identifier) @name
            (scoped_identifier name: (identifier) @name)
            (generic_type type: (type_identifier) @name)])) @reference.type
  (#match? @name "^[A-Z]")
  (#not-eq? @name "Self"))
(macro_invocation macro: [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.call
((struct_expression
   name: [(type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
          (generic_type_with_turbofish type: (type_identifier) @name)]) @reference.call
  (#not-eq? @name "Self"))
((type_identifier) @name @reference.type
  (#not-eq? @name "Self"))
(use_declaration argument: [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.import
(use_list [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.import
(use_as_clause path: [(identifier) @name (scoped_identifier name: (identifier) @name)]) @reference.import
(extern_crate_declaration name: (identifier) @name) @reference.import
; Calls inside macro arguments (`assert_eq!(a.len(), 2)`, `vec![f(x)]`),
; which the grammar keeps as token trees: a name followed directly by a
; parenthesized tree (`#adjacent?`: `x = (a, b)` is no call), keywords left
; out.
((token_tree (identifier) @name . (token_tree . "(") @_args) @reference.call
  (#adjacent? @name @_args)
  (#not-any-of? @name "if" "while" "match" "return" "in" "for" "let" "mut" "move" "as" "else" "loop" "break" "continue" "where" "impl" "dyn" "ref" "fn" "pub" "use" "mod" "struct" "enum" "type" "const" "static" "unsafe" "async" "await" "yield"))

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read

; Elixir. Every construct is a call (`defmodule`, `def`, `@doc`); the
; patterns name the keyword they stand for.
;
; Conventions:
; - Doc comments are `@doc` and `@typedoc` strings just before the
;   definition (a `# comment` between them is skipped), and a module's
;   `@moduledoc` string, its first statement. The comments at the top of
;   the file are the header.
; - Types: `defmodule A.B` is a class named `A.B` (a nested module is owned
;   by the one around it), `defprotocol` an interface, `defimpl P, for: T` a
;   class named `P` whose supertype is `P`.
; - Functions: `def`, `defp`, `defmacro`, `defmacrop`, `defguard`,
;   `defguardp`, `defdelegate` (every clause of a multi-clause function is
;   its own element, as in the source); a `@callback`/`@macrocallback` is a
;   function of its module; `@type`, `@typep` and `@opaque` are types.
; - Values: `defstruct`'s fields given as atoms (`defstruct [:a, :b]`) are
;   fields of the module; other module attributes (`@timeout 5_000`) are
;   constants.
; - References: local and remote calls (`f(x)`, `Mod.f(x)`, `x |> f()`:
;   `f`), the modules named in code (`Mod` in `Mod.f`), and `alias`,
;   `import`, `require` and `use` as imports.

(source (comment) @header)
(comment) @attribute
((unary_operator
   operator: "@"
   operand: (call target: (identifier) @_doc (arguments . [(string) (sigil)]))) @doc
  (#any-of? @_doc "doc" "typedoc"))
(unary_operator
  operator: "@"
  operand: (call target: (identifier) @_spec)
  (#any-of? @_spec "spec" "impl" "deprecated" "dialyzer")) @attribute

; Modules, protocols and implementations.
((call
   target: (identifier) @_kw
   (arguments . (alias) @name)
   (do_block
     .
     (unary_operator
       operator: "@"
       operand: (call target: (identifier) @_moduledoc (arguments . [(string) (sigil)]))) @doc))
   @definition.class
  (#eq? @_kw "defmodule")
  (#eq? @_moduledoc "moduledoc"))
((call target: (identifier) @_kw (arguments . (alias) @name) (do_block)? @body) @definition.class
  (#eq? @_kw "defmodule"))
((call target: (identifier) @_kw (arguments . (alias) @name) (do_block)? @body) @definition.interface
  (#eq? @_kw "defprotocol"))
((call target: (identifier) @_kw (arguments . (alias) @name @supertype) (do_block)? @body) @definition.class
  (#eq? @_kw "defimpl"))

; Functions, macros and guards.
((call
   target: (identifier) @_kw
   (arguments
     .
     [
       (identifier) @name
       (call target: (identifier) @name)
       (binary_operator left: [(call target: (identifier) @name) (identifier) @name] operator: "when")
     ])
   (do_block)? @body) @definition.function
  (#any-of? @_kw "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp"))

; Callbacks and types.
((unary_operator
   operator: "@"
   operand: (call
     target: (identifier) @_kw
     (arguments
       .
       [
         (call target: (identifier) @name)
         (binary_operator left: [(call target: (identifier) @name) (identifier) @name])
         (binary_operator left: (binary_operator left: [(call target: (identifier) @name) (identifier) @name]))
       ]))) @definition.function
  (#any-of? @_kw "callback" "macrocallback"))
((unary_operator
   operator: "@"
   operand: (call
     target: (identifier) @_kw
     (arguments
       .
       (binary_operator left: [(call target: (identifier) @name) (identifier) @name] operator: "::")))) @definition.type
  (#any-of? @_kw "type" "typep" "opaque"))

; Struct fields and module attributes.
((call target: (identifier) @_kw (arguments . (list (atom) @name @definition.field)))
  (#eq? @_kw "defstruct"))
((unary_operator
   operator: "@"
   operand: (call target: (identifier) @name (arguments . (_)))) @definition.constant
  (#not-any-of? @name "doc" "moduledoc" "typedoc" "spec" "type" "typep" "opaque" "callback" "macrocallback"
    "impl" "behaviour" "deprecated" "dialyzer" "derive" "enforce_keys" "compile" "before_compile" "after_compile"
    "on_load" "on_definition" "external_resource" "optional_callbacks" "vsn" "file" "fallback_to_any"))

; Imports.
((call target: (identifier) @_kw (arguments . (alias) @import)) (#any-of? @_kw "alias" "import" "require" "use"))
((call target: (identifier) @_kw (arguments . (alias) @name)) @reference.import
  (#any-of? @_kw "alias" "import" "require" "use"))

; References.
((call target: (identifier) @name) @reference.call
  (#not-any-of? @name "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp"
    "defmodule" "defprotocol" "defimpl" "defstruct" "defexception" "defoverridable" "alias" "import" "require"
    "use" "case" "cond" "else" "for" "if" "quote" "receive" "super" "try" "unless" "unquote" "unquote_splicing"
    "with" "fn" "doc" "moduledoc" "typedoc" "spec" "type" "typep" "opaque" "callback" "impl" "behaviour"))
(call target: (dot right: (identifier) @name)) @reference.call
(binary_operator operator: "|>" right: (identifier) @name) @reference.call
(call target: (dot left: (alias) @name)) @reference.type

; Reads of named values: module attributes read (`@timeout`); the engine
; keeps those that name a value (a constant the file defines: its
; attributes, or upper case).
(unary_operator operator: "@" operand: (identifier) @name) @reference.read

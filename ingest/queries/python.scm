; Python.
;
; Conventions:
; - Every `def` and `class` is a definition, at any depth (in a function, a
;   method, an `if`/`try`/`with`/`for`/`while`/`match` block); the engine
;   gives each its owner chain (`serve.DocServer`, `Writer.reset`).
; - A `def` directly in a class body is a method, any other `def` a function.
;   The method patterns start at the class and capture only the kind: the
;   engine makes a node captured as a function and as a method a method,
;   whatever the order. A `def` in an `if` inside a class body is a
;   function owned by the class.
; - A class's supertypes are its positional bases, as bare names (`mod.C`
;   and `Generic[T]` are `C` and `Generic`).
; - Decorators belong to decorated_definition, so the definition itself is
;   captured and its signature starts at `def`/`class`.
; - Docstrings are the first string statement inside a body; `#:` comments
;   (Sphinx) document the definition below them.
; - Every assignment to a bare name, anywhere, is captured as a variable: the
;   engine keeps those at module level (at any depth of module-level
;   `if`/`try`/`with`/`for` blocks), turns those directly in a class body into
;   fields, and drops those in a function (locals). Attribute and subscript
;   targets (`self.x = …`, `a.b = …`, `d[k] = …`) define nothing (as in
;   universal-ctags). Lambdas and comprehensions cannot hold an assignment
;   (`:=` is not captured), so no `@local.scope` is needed.
; - Every pattern starts at a named node kind that is not too common
;   (`assignment`, `function_definition`, `class_definition`, …): the engine
;   runs the query only at those nodes.

; Module docstring and leading comments are header comments.
(module . (expression_statement (string) @header))

(decorator) @attribute
((comment) @doc (#match? @doc "^#:"))

; Imports: `import a.b` and `from a.b import c` both name the module.
(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import))
(import_from_statement module_name: (dotted_name) @import)
(import_from_statement module_name: (relative_import) @import)

; Classes, at any depth, decorated or not.
(class_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?) @body) @definition.class

; Supertypes: the positional bases (`B`, `mod.C`, `Generic[T]`), not keyword
; arguments (`metaclass=M`), `*bases` or calls (`namedtuple(…)`).
(class_definition
  superclasses: (argument_list [(identifier) (attribute) (subscript)] @supertype)) @definition.class

; Methods: a `def` (also decorated) or a named lambda directly in a class
; body. Must come from the class (see the header). A `def`'s name, body
; and docstring come from the function pattern's match of the same node,
; so this pattern does not descend into method bodies (it runs at every
; class).
(class_definition
  body: (block
    [
      (function_definition) @definition.method
      (decorated_definition definition: (function_definition) @definition.method)
      (expression_statement
        (assignment
          left: (identifier) @name
          right: (lambda body: (_) @body)) @definition.method)
    ]))

; Functions: every other `def`, at any depth, decorated or not.
(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?) @body) @definition.function

; Named lambdas: `key = lambda item: item[0]` defines a function, at any
; depth, like a `def` (universal-ctags agrees). The assignment is also a
; variable below; the engine keeps it as a function. The signature is cut at
; the lambda's body: `key = lambda item`.
(assignment
  left: (identifier) @name
  right: (lambda body: (_) @body)) @definition.function

; Variables: `x = …`, `x: T = …`, `x: T`; in a chain (`a = b = …`) the inner
; assignment is matched on its own. The signature is cut at the value.
(assignment
  left: (identifier) @name
  right: (_)? @body) @definition.variable

; Unpacking: `a, b = …`, `(a, b) = …`, `[a, *b] = …` define each name; the
; name itself is the definition node, so that each is its own element.
(assignment
  left: [
    (pattern_list [(identifier) @name @definition.variable (list_splat_pattern (identifier) @name @definition.variable)])
    (tuple_pattern [(identifier) @name @definition.variable (list_splat_pattern (identifier) @name @definition.variable)])
    (list_pattern [(identifier) @name @definition.variable (list_splat_pattern (identifier) @name @definition.variable)])
  ])

; Type aliases (3.12): `type Vector = list[float]`, `type Pair[T] = …`.
(type_alias_statement
  left: (type [(identifier) @name (generic_type (identifier) @name)])
  right: (_) @body) @definition.type

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the function or class around it as `in`):
; - calls by the called name: `f(…)` and `obj.f(…)` are `f`, `Writer(…)` (a
;   constructor) is `Writer`; decorators (`@cache`, `@app.route(…)`) too;
; - types: the names in annotations (`x: Optional[Codec]`, `-> list[T]`,
;   the string of a forward reference `"Sink"`), class bases, and the class
;   of a call on a capitalized receiver (`Writer.from_file(…)`; not all-caps
;   constants);
; - imports: each module (`os.path`, the `util` of `from .util import`) and
;   each imported name (`OrderedDict`), without their aliases;
; - classes used as values: a capitalized name read through what holds it
;   (`except exceptions.CancelledError`, `constants._SendfileMode.TRY`,
;   `isinstance(f, futures.Future)`; not all-caps constants), and the
;   exceptions an `except` catches or a bare `raise` raises.
; Rooted at `call` and `type` (many, but each is a reference), at
; `attribute` (many more: every `obj.x`, only a capitalized name kept) and
; at nodes the query already starts at.
(call
  function: [(identifier) @name
             (attribute attribute: (identifier) @name)]) @reference.call
(decorator [(identifier) @name (attribute attribute: (identifier) @name)]) @reference.call
((call function: (attribute object: (identifier) @name)) @reference.type
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z]"))
(type
  [(identifier) @name
   (attribute attribute: (identifier) @name)
   (generic_type . (identifier) @name)
   ((string (string_content) @name) (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$"))]) @reference.type
((attribute attribute: (identifier) @name) @reference.type
  (#match? @name "^_*[A-Z][A-Za-z0-9_]*[a-z]"))
(except_clause value: [(identifier) @name (tuple (identifier) @name)]) @reference.type
(except_clause (as_pattern . [(identifier) @name (tuple (identifier) @name)])) @reference.type
((raise_statement (identifier) @name) @reference.type
  (#match? @name "^_*[A-Z][A-Za-z0-9_]*[a-z]"))
(class_definition
  superclasses: (argument_list
    [(identifier) @name
     (attribute attribute: (identifier) @name)])) @reference.type
(import_statement
  name: [(dotted_name) @name
         (aliased_import name: (dotted_name) @name)]) @reference.import
(import_from_statement
  module_name: [(dotted_name) @name
                (relative_import (dotted_name) @name)]) @reference.import
(import_from_statement
  name: [(dotted_name) @name
         (aliased_import name: (dotted_name) @name)]) @reference.import

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read

; Defaults: a key, attribute or parameter given a literal when it is
; missing: `opts.get("timeout", 30)`, `getattr(cfg, "retries", 3)`,
; `def __init__(self, tolerance: int = 300)`.
((call
  function: (attribute attribute: (identifier) @_get)
  arguments: (argument_list . (string (string_content) @name) .
    [(integer) (float) (string) (true) (false) (none) (unary_operator) (list) (tuple) (dictionary)])) @reference.default
  (#eq? @_get "get"))
((call
  function: (identifier) @_getattr
  arguments: (argument_list . (_) . (string (string_content) @name) .
    [(integer) (float) (string) (true) (false) (none) (unary_operator) (list) (tuple) (dictionary)])) @reference.default
  (#eq? @_getattr "getattr"))
(default_parameter
  name: (identifier) @name
  value: [(integer) (float) (string) (true) (false) (unary_operator)]) @reference.default
(typed_default_parameter
  name: (identifier) @name
  value: [(integer) (float) (string) (true) (false) (unary_operator)]) @reference.default

; Kotlin (tree-sitter-kotlin-ng).
;
; Conventions:
; - Doc comments are KDoc `/** */`. Annotations usually sit inside
;   `modifiers` (a child of the declaration); at the top level an annotation
;   with arguments on its own line parses as an `annotated_expression`
;   sibling, captured as an attribute so the doc-comment walk skips it.
; - Every declaration is matched at any depth; the engine computes owners from
;   the enclosing definitions (`Outer.Inner`, `Outer.method`).
; - Types: `class_declaration` covers classes, interfaces (`interface`
;   keyword, also `fun interface`) and enums (`enum` class modifier). Data,
;   sealed, value and annotation classes and `object`s are classes; a named
;   companion object is a class too, an unnamed one is named `Companion`.
;   `typealias` is a type.
; - Supertypes: the types after `:` of a class, interface, enum class,
;   object or companion object (`B()`, `C<Int>`, `D by d` give `B`, `C`, `D`).
; - Functions: top-level and local functions (in a function body, a lambda,
;   a loop or a `when` branch) are functions; functions in a class, object,
;   companion object or enum body are methods.
; - Values: every `val`/`var` is captured; the engine keeps the top-level
;   ones (variables) and the ones in a class body (fields) and drops the
;   locals. `const val` is a constant. `val`/`var` constructor parameters are
;   fields of their class. Enum entries are constants of their enum.
; - Local scopes (values inside are locals): lambdas, anonymous functions,
;   function bodies, getters and setters, `init` blocks, secondary
;   constructors, and object expressions without a supertype. An object
;   expression with a supertype (`object : Runnable { … }`) owns its members
;   under the supertype's name; an enum entry's body under the entry's name.
; - Grammar limits: about one real file in eight has a parse error (a `when`
;   branch with a comment after `->`, `internal actual constructor(` on its
;   own line, a top-level `@A(…)` before `annotation class`, an annotated
;   `typealias`); what the grammar could not place is lost, except functions
;   left directly inside an ERROR node (functions, without their owner).

; Header: the comments at the top of the file. A `/** */` comment is a header
; only when a package or import follows it.
(source_file ((block_comment) @header (#not-match? @header "^/\\*\\*")))
(source_file ((line_comment) @header))
(source_file . (block_comment) @header . [(package_header) (import)])

((block_comment) @doc (#match? @doc "^/\\*\\*"))
(annotation) @attribute
(source_file (annotated_expression) @attribute)
(source_file (file_annotation) @attribute)

; Imports: the imported name (`a.b.C`; `a.b` for `a.b.*`; aliases dropped).
(import (qualified_identifier) @import)

; Interfaces (also `fun interface`, which the grammar may read with an enum
; body).
(class_declaration
  "interface"
  name: (identifier) @name
  [(class_body) (enum_class_body)]? @body) @definition.interface

; Enum classes.
(class_declaration
  (modifiers (class_modifier "enum"))
  name: (identifier) @name
  (enum_class_body)? @body) @definition.enum

; Other classes: plain, data, sealed, abstract, value, annotation classes.
(class_declaration
  (modifiers)? @_mods
  "class"
  name: (identifier) @name
  (class_body)? @body
  (#not-match? @_mods "(^|\\s)enum(\\s|$)")) @definition.class

; Objects and companion objects; an unnamed companion is `Companion`, as
; Kotlin (and ctags) name it.
(object_declaration name: (identifier) @name (class_body)? @body) @definition.class
(companion_object name: (identifier) @name (class_body)? @body) @definition.class
((companion_object !name (class_body)? @body) @definition.class
  (#set! name "Companion"))

; Supertypes: the delegation specifiers after `:` of classes, interfaces,
; enum classes, objects and companion objects: a superclass call (`B()`), an
; interface (`C<Int>`), a delegated interface (`D by d`); the engine keeps
; each type's bare name. Each kind repeats its main pattern's test, so that
; the match merged first gives the element its kind; an unnamed companion
; repeats its name. (An object expression's supertype names its scope; it is
; no definition, so it has no supertypes.)
(class_declaration
  "interface"
  (delegation_specifiers
    (delegation_specifier
      [(user_type) @supertype
       (constructor_invocation (user_type) @supertype)
       (explicit_delegation (user_type) @supertype)]))) @definition.interface
(class_declaration
  (modifiers (class_modifier "enum"))
  (delegation_specifiers
    (delegation_specifier
      [(user_type) @supertype
       (constructor_invocation (user_type) @supertype)
       (explicit_delegation (user_type) @supertype)]))) @definition.enum
((class_declaration
   (modifiers)? @_mods
   "class"
   (delegation_specifiers
     (delegation_specifier
       [(user_type) @supertype
        (constructor_invocation (user_type) @supertype)
        (explicit_delegation (user_type) @supertype)]))) @definition.class
  (#not-match? @_mods "(^|\\s)enum(\\s|$)"))
(object_declaration
  (delegation_specifiers
    (delegation_specifier
      [(user_type) @supertype
       (constructor_invocation (user_type) @supertype)
       (explicit_delegation (user_type) @supertype)]))) @definition.class
(companion_object
  name: (identifier)
  (delegation_specifiers
    (delegation_specifier
      [(user_type) @supertype
       (constructor_invocation (user_type) @supertype)
       (explicit_delegation (user_type) @supertype)]))) @definition.class
((companion_object
   !name
   (delegation_specifiers
     (delegation_specifier
       [(user_type) @supertype
        (constructor_invocation (user_type) @supertype)
        (explicit_delegation (user_type) @supertype)]))) @definition.class
  (#set! name "Companion"))

; Object expressions with a supertype and enum entry bodies own their members.
(object_literal
  (delegation_specifiers
    . (delegation_specifier
        [(user_type (identifier) @name .)
         (user_type (identifier) @name . (type_arguments) .)
         (constructor_invocation (user_type (identifier) @name .))
         (constructor_invocation (user_type (identifier) @name . (type_arguments) .))]))
  (class_body) @scope)
(enum_entry (identifier) @name (class_body) @scope)

; Locals live in these. A function body is one too, so that the locals of a
; function the grammar failed to parse as one (inside an ERROR) stay out.
(object_literal . (class_body)) @local.scope
[(function_body) (lambda_literal) (anonymous_function) (getter) (setter) (anonymous_initializer) (secondary_constructor)] @local.scope

; Top-level functions (extension functions included).
(source_file
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.function)

; Methods: functions in a class, object, companion object, enum or object
; expression body.
(class_body
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.method)
(enum_class_body
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.method)

; Functions the grammar could not place in their class (inside an ERROR).
(ERROR
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.function)

; Local functions, owned by the function that holds them.
(block
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.function)
(lambda_literal
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.function)
(for_statement
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.function)
(while_statement
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.function)
(do_while_statement
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.function)
(when_entry
  (function_declaration name: (identifier) @name (function_body)? @body) @definition.function)

; Properties (`val`, `var`, destructuring declarations), at any depth: the
; value, delegate, getter or setter is the body. `const val` is a constant.
((property_declaration
   (modifiers)? @_mods
   [(variable_declaration (identifier) @name)
    (multi_variable_declaration (variable_declaration (identifier) @name))]) @definition.variable
  (#not-match? @_mods "\\bconst\\b"))
((property_declaration
   (modifiers)? @_mods
   "=" . (_) @body) @definition.variable
  (#not-match? @_mods "\\bconst\\b"))
((property_declaration
   (modifiers)? @_mods
   [(property_delegate) (getter) (setter)] @body) @definition.variable
  (#not-match? @_mods "\\bconst\\b"))
(property_declaration
  (modifiers (property_modifier "const"))
  (variable_declaration (identifier) @name)
  "=" . (_) @body) @definition.constant

; `val`/`var` constructor parameters are fields of their class (cut after
; their default value, below).
(class_parameter ["val" "var"] (identifier) @name) @definition.field

; Enum entries, cut at their arguments or body.
(enum_entry (identifier) @name) @definition.constant
(enum_entry (value_arguments) @body) @definition.constant
(enum_entry (identifier) . (class_body) @body) @definition.constant

; Declarations without a body (an abstract or interface member, an `expect`
; declaration, a property without a value, a class without a body, a
; constructor property, an enum entry without arguments) are cut where their
; next sibling starts: a `,`, a `)`, a `}` or the next declaration, never a
; comment. The signature then holds the whole declaration, also when it
; spans lines (`fun f(\n  a: Int,\n): R`), where the engine would keep its first
; line only. (A body starts with `{` or `=`; the last child of a bodyless
; declaration never does.)
([(source_file
    (function_declaration (_) @_last .) @definition.function . _ @body)
  (block
    (function_declaration (_) @_last .) @definition.function . _ @body)]
  (#not-match? @_last "^[{=]")
  (#not-match? @body "^/[/*]"))
([(class_body
    (function_declaration (_) @_last .) @definition.method . _ @body)
  (enum_class_body
    (function_declaration (_) @_last .) @definition.method . _ @body)]
  (#not-match? @_last "^[{=]")
  (#not-match? @body "^/[/*]"))
([(source_file
    (property_declaration (modifiers)? @_mods (variable_declaration) .) @definition.variable . _ @body)
  (class_body
    (property_declaration (modifiers)? @_mods (variable_declaration) .) @definition.variable . _ @body)
  (enum_class_body
    (property_declaration (modifiers)? @_mods (variable_declaration) .) @definition.variable . _ @body)]
  (#not-match? @_mods "\\bconst\\b")
  (#not-match? @body "^/[/*]"))
([(source_file
    (class_declaration "interface" (_) @_last .) @definition.interface . _ @body)
  (class_body
    (class_declaration "interface" (_) @_last .) @definition.interface . _ @body)
  (enum_class_body
    (class_declaration "interface" (_) @_last .) @definition.interface . _ @body)]
  (#not-match? @_last "^\\{")
  (#not-match? @body "^/[/*]"))
([(source_file
    (class_declaration (modifiers)? @_mods "class" (_) @_last .) @definition.class . _ @body)
  (class_body
    (class_declaration (modifiers)? @_mods "class" (_) @_last .) @definition.class . _ @body)
  (enum_class_body
    (class_declaration (modifiers)? @_mods "class" (_) @_last .) @definition.class . _ @body)]
  (#not-match? @_mods "(^|\\s)enum(\\s|$)")
  (#not-match? @_last "^\\{")
  (#not-match? @body "^/[/*]"))
([(source_file
    (object_declaration (_) @_last .) @definition.class . _ @body)
  (class_body
    (object_declaration (_) @_last .) @definition.class . _ @body)
  (class_body
    (companion_object name: (identifier) (_) @_last .) @definition.class . _ @body)
  (enum_class_body
    (object_declaration (_) @_last .) @definition.class . _ @body)]
  (#not-match? @_last "^\\{")
  (#not-match? @body "^/[/*]"))
((class_parameters
   (class_parameter ["val" "var"]) @definition.field . _ @body)
  (#not-match? @body "^/[/*]"))
((enum_class_body
   (enum_entry (_) @_last .) @definition.constant . _ @body)
  (#not-match? @_last "^[({]")
  (#not-match? @body "^/[/*]"))

; Type aliases, at any depth.
(type_alias type: (identifier) @name "=" . (_) @body) @definition.type

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the function, method or class around it as
; `in`):
; - calls by the called name: `f(…)`, `a.b.f(…)`, `x?.f(…)` are `f`;
;   constructors are calls in Kotlin (`Result(data)`); function references
;   (`::main`);
; - types: every type name (`user_type`: annotations, supertypes, generic
;   arguments; also a type parameter's bound), and the class of a call on a
;   capitalized receiver (`Json.stringify(…)`, `Companion`-style calls; not
;   all-caps constants);
; - imports: the imported name (`Flow` of `kotlinx.coroutines.flow.Flow`,
;   not its alias), the package of `a.b.*`.
(call_expression
  . [(identifier) @name
     (navigation_expression (identifier) @name .)]) @reference.call
((call_expression
   . (navigation_expression . (identifier) @name)) @reference.type
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z]"))
(callable_reference (identifier) @name .) @reference.call
; The grammar reads `!f()` as a call of `!f`.
(call_expression
  . (unary_expression
      argument: [(identifier) @name
                 (navigation_expression (identifier) @name .)])) @reference.call
(user_type (identifier) @name) @reference.type
((import (qualified_identifier (identifier) @name .)) @reference.import
  (#not-match? @reference.import "\\*"))
((import (qualified_identifier) @name) @reference.import
  (#match? @reference.import "\\*"))

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read

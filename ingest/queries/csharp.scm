; C#.
;
; Conventions:
; - Doc comments are `///` XML doc lines (and `/** */`). Attribute lists
;   (`[Obsolete]`) are children of the declaration, so a doc comment directly
;   precedes its declaration node.
; - Every declaration is matched at any depth, whatever its parent: members
;   inside `#if`/`#else` blocks (`preproc_if`, which wraps declarations of a
;   type body or a namespace) count like the others. An `#if` block the
;   grammar cannot read (`#if NET public #endif ref partial struct
;   MessagePackReader`, a modifier split from its declaration) has its two
;   directives blanked and the file read again (`@mask`, kept when it finds
;   more definitions).
; - Namespaces are scopes: a block namespace (`namespace A.B { … }`) owns what
;   it holds, a file-scoped one (`namespace A.B;`) the whole file, so owners
;   read `A.B.Outer.Inner`. A namespace itself is not an element.
; - Types: `class`, `record` / `record class` -> classes; `struct`,
;   `record struct` -> structs; `interface`, `enum`; `delegate` -> a type.
;   Nested types are owned by their enclosing types.
; - Supertypes: the base list of a class, struct, interface or record, each
;   type's own name (`System.IDisposable` -> `IDisposable`); not an enum's
;   underlying type (`enum E : byte`).
; - Methods, constructors, destructors, operators, conversions and indexers
;   are methods of their type; local functions are functions owned by the
;   method that holds them.
; - Values: fields (each declarator of `int a, b;`), properties, events and a
;   positional record's parameters are fields; `const` fields are constants.
;   Locals (`local_declaration_statement`) are never captured, so no
;   `@local.scope` is needed. Enum members are constants of their enum.

(preproc_if "#if" @mask condition: (_) @mask (ERROR) "#endif" @mask)

; Header: the non-doc comments at the top of the file.
(compilation_unit ((comment) @header (#not-match? @header "^(///|/\\*\\*)")))

((comment) @doc (#match? @doc "^(///|/\\*\\*)"))
(attribute_list) @attribute

; Imports: `using A.B;`, `using static A.B;`, `global using A.B;` and the target
; of an alias (`using J = A.B;`).
(using_directive !name (_) @import)
(using_directive name: (identifier) "=" . (_) @import)

; An alias (`using Json = System.Text.Json.JsonSerializer;`, C# 12
; `using Point = (int X, int Y);`) is also a type alias, owned by its namespace.
(using_directive name: (identifier) @name "=") @definition.type

; Namespaces own their declarations; a file-scoped namespace owns the whole
; file (its scope node is the compilation unit, so a `using` alias above the
; `namespace A.B;` line is owned by `A.B` too).
(namespace_declaration name: (_) @name) @namespace
(compilation_unit (file_scoped_namespace_declaration name: (_) @name)) @namespace

; Types, at any depth. A declaration without a body (`record P(int X);`,
; `delegate void D();`, an `extern` or abstract method, a field without a
; value) is cut at its `;`: cutting at the first line would leave nothing when
; an attribute list stands on the line above.
(class_declaration name: (identifier) @name body: (declaration_list)? @body) @definition.class
(struct_declaration name: (identifier) @name body: (declaration_list)? @body) @definition.struct
(interface_declaration name: (identifier) @name body: (declaration_list)? @body) @definition.interface
(enum_declaration name: (identifier) @name body: (enum_member_declaration_list)? @body) @definition.enum
((record_declaration name: (identifier) @name [body: (declaration_list) @body ";" @body]) @definition.class
  (#not-match? @definition.class "^(\\[[^\\]]*\\]\\s*|\\w+\\s+)*record\\s+struct\\b"))
((record_declaration name: (identifier) @name [body: (declaration_list) @body ";" @body]) @definition.struct
  (#match? @definition.struct "^(\\[[^\\]]*\\]\\s*|\\w+\\s+)*record\\s+struct\\b"))
(delegate_declaration name: (identifier) @name ";" @body) @definition.type

; Supertypes: the base list of classes, structs, interfaces and records (a
; record's `Base(X)` too), each type's own name (`IList<T>` -> `IList`,
; `System.IDisposable` -> `IDisposable`, `A<T>.B` -> `B`). An enum's base
; (`enum E : byte`) is its underlying type, not a supertype: left out.
(class_declaration
  (base_list
    [(identifier) @supertype
     (generic_name) @supertype
     (alias_qualified_name) @supertype
     (qualified_name name: (_) @supertype)
     (primary_constructor_base_type type: (_) @supertype)])) @definition.class
(struct_declaration
  (base_list
    [(identifier) @supertype
     (generic_name) @supertype
     (alias_qualified_name) @supertype
     (qualified_name name: (_) @supertype)])) @definition.struct
(interface_declaration
  (base_list
    [(identifier) @supertype
     (generic_name) @supertype
     (alias_qualified_name) @supertype
     (qualified_name name: (_) @supertype)])) @definition.interface
((record_declaration
   (base_list
     [(identifier) @supertype
      (generic_name) @supertype
      (alias_qualified_name) @supertype
      (qualified_name name: (_) @supertype)
      (primary_constructor_base_type type: (_) @supertype)])) @definition.class
  (#not-match? @definition.class "^(\\[[^\\]]*\\]\\s*|\\w+\\s+)*record\\s+struct\\b"))
((record_declaration
   (base_list
     [(identifier) @supertype
      (generic_name) @supertype
      (alias_qualified_name) @supertype
      (qualified_name name: (_) @supertype)])) @definition.struct
  (#match? @definition.struct "^(\\[[^\\]]*\\]\\s*|\\w+\\s+)*record\\s+struct\\b"))

; Methods, constructors, destructors, operators (named by their operator,
; `==`), conversions (named by their target type) and indexers (named
; `this`): members of a type, also inside `#if` blocks.
(method_declaration name: (identifier) @name body: (_) @body) @definition.method
(method_declaration name: (identifier) @name !body ";" @body) @definition.method
(constructor_declaration name: (identifier) @name body: (_) @body) @definition.method
(constructor_declaration name: (identifier) @name !body ";" @body) @definition.method
(destructor_declaration name: (identifier) @name body: (_) @body) @definition.method
((operator_declaration operator: _ @name body: (_) @body) @definition.method
  (#not-match? @name "^[<>]|[<>]$"))
((operator_declaration operator: _ @name !body ";" @body) @definition.method
  (#not-match? @name "^[<>]|[<>]$"))
; (The engine strips `<` and `>` around names, as around `<stdio.h>`: the
; comparison and shift operators stay unnamed rather than misnamed.)
((operator_declaration operator: _ @_op body: (_) @body) @definition.method
  (#match? @_op "^[<>]|[<>]$"))
((operator_declaration operator: _ @_op !body ";" @body) @definition.method
  (#match? @_op "^[<>]|[<>]$"))
(conversion_operator_declaration type: (_) @name body: (_) @body) @definition.method
(conversion_operator_declaration type: (_) @name !body ";" @body) @definition.method
(indexer_declaration "this" @name [accessors: (_) @body value: (_) @body]) @definition.method

; Local functions: functions owned by the method (or function) around them.
; The grammar's error recovery can read `else if (…) {` or `case X:` after a
; `#if` block inside a method as a local function: those are left out.
((local_function_statement type: (_) @_type name: (identifier) @name body: (_)? @body) @definition.function
  (#not-any-of? @_type "else" "case" "return" "goto" "if" "await" "yield" "throw" "new" "using")
  (#not-any-of? @name "if" "while" "for" "foreach" "switch" "lock" "using" "fixed" "catch" "when" "return" "case"))

; Properties and events with accessors: fields, cut at `{ get; … }` or `=>`.
(property_declaration
  name: (identifier) @name
  [accessors: (_) @body value: (arrow_expression_clause) @body]) @definition.field
(event_declaration name: (identifier) @name accessors: (_)? @body) @definition.field

; Fields and field-like events: the first declarator with the whole
; declaration, further ones (`int a = 1, b = 2;`) with the declarator alone,
; cut at the value (or at the `;` when the first one has none). `const` ones
; are constants (modifiers are lowercase keywords after the attribute lists).
((field_declaration
   (variable_declaration
     . type: (_)
     . (variable_declarator name: (identifier) @name "=" . (_) @body))) @definition.constant
  (#match? @definition.constant "^(\\[[^\\]]*\\]\\s*)*([a-z]+\\s+)*const\\s"))
((field_declaration
   (variable_declaration
     . type: (_)
     . (variable_declarator name: (identifier) @name "=" . (_) @body))) @definition.field
  (#not-match? @definition.field "^(\\[[^\\]]*\\]\\s*)*([a-z]+\\s+)*const\\s"))
(field_declaration
  (variable_declaration
    . type: (_)
    . (variable_declarator name: (identifier) @name .)) ";" @body) @definition.field
((field_declaration
   (variable_declaration
     "," . (variable_declarator name: (identifier) @name ("=" . (_) @body)?) @definition.constant)) @_decl
  (#match? @_decl "^(\\[[^\\]]*\\]\\s*)*([a-z]+\\s+)*const\\s"))
((field_declaration
   (variable_declaration
     "," . (variable_declarator name: (identifier) @name ("=" . (_) @body)?) @definition.field)) @_decl
  (#not-match? @_decl "^(\\[[^\\]]*\\]\\s*)*([a-z]+\\s+)*const\\s"))
(event_field_declaration
  (variable_declaration
    . type: (_)
    . (variable_declarator name: (identifier) @name "=" . (_) @body))) @definition.field
(event_field_declaration
  (variable_declaration
    . type: (_)
    . (variable_declarator name: (identifier) @name .)) ";" @body) @definition.field
(event_field_declaration
  (variable_declaration
    "," . (variable_declarator name: (identifier) @name ("=" . (_) @body)?) @definition.field))

; Enum members are constants of their enum.
(enum_member_declaration name: (identifier) @name) @definition.constant

; A positional record's parameters are its properties.
(record_declaration
  (parameter_list (parameter name: (identifier) @name) @definition.field))

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the method or type around it as `in`):
; - calls by the called name: `F(…)`, `a.b.F(…)`, `a?.F(…)`, `F<T>(…)` are `F`;
;   constructors (`new Result(…)`, `new List<T>()`, `new A.B()` is `B`);
; - types: the grammar spells type names as plain identifiers, so each
;   place a type stands is listed: declarations of variables, fields,
;   parameters, properties and return types, generic names and their
;   arguments, base lists, constraints, arrays, nullables, casts, `typeof`,
;   `is`/`as` patterns, `catch`, attributes (`[Obsolete]`); and the class of
;   a call on a capitalized receiver (`Json.Serialize(…)`; a property such
;   as `Name.Trim()` reads the same). A qualified type in a declaration
;   (`System.IO.Stream s`) is left out: each place takes its type as any
;   node and keeps plain names (matching the node's kind costs much to
;   compile, once per place), without the predefined types (`int`,
;   `string`, `var`);
; - imports: a namespace (`System.Collections.Generic`), the type of
;   `using static System.Math` (`Math`) and of an alias's target.
(invocation_expression
  function: [(identifier) @name
             (generic_name . (identifier) @name)
             (member_access_expression name: [(identifier) @name (generic_name . (identifier) @name)])
             (conditional_access_expression
               (member_binding_expression name: [(identifier) @name (generic_name . (identifier) @name)]))]) @reference.call
((invocation_expression
   function: (member_access_expression expression: (identifier) @name)) @reference.type
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z]"))
(object_creation_expression
  type: [(identifier) @name
         (qualified_name name: (identifier) @name)
         (generic_name . (identifier) @name)
         (qualified_name name: (generic_name . (identifier) @name))]) @reference.call
(generic_name . (identifier) @name) @reference.type
(type_argument_list (identifier) @name) @reference.type
(base_list (identifier) @name) @reference.type
((variable_declaration type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((parameter type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((method_declaration returns: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((local_function_statement type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((delegate_declaration type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((property_declaration type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((indexer_declaration type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((type_parameter_constraint type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((array_type type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((nullable_type type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((cast_expression type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((typeof_expression type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((declaration_pattern type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((catch_declaration type: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((attribute name: _ @name) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @name "var" "dynamic" "object" "string" "bool" "byte" "sbyte" "char" "decimal" "double" "float" "int" "uint" "long" "ulong" "short" "ushort" "void" "nint" "nuint"))
((using_directive !name [(identifier) (qualified_name)] @name) @reference.import
  (#not-match? @reference.import "\\bstatic\\s"))
((using_directive !name (qualified_name name: (identifier) @name)) @reference.import
  (#match? @reference.import "\\bstatic\\s"))
(using_directive name: (identifier) "=" . (qualified_name name: (identifier) @name)) @reference.import

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read

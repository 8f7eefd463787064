; JavaScript (and JSX). Doc comments are JSDoc `/** */` blocks before an
; element; for an exported element they stand before the `export` statement
; (the engine climbs from the declaration to it). Decorators standing before
; `export` are skipped; decorators of a method or class without `export` are
; part of that node in this grammar, so they show in its signature.
;
; Kinds: classes -> classes; functions and generators at file level, arrow
; functions / function expressions assigned to the first declarator of a
; top-level `const`/`let`/`var` or to a top-level `x.y = …` (CommonJS
; exports) -> functions; class methods and arrow-function fields -> functions
; with owner; other top-level `const`/`let`/`var` and static class fields ->
; variables.

; Header: the comments at the very top of the file (the engine keeps the
; leading run only).
(program (comment) @header)

((comment) @doc (#match? @doc "^/\\*\\*"))
(decorator) @attribute

; Imports: the module of `import … from "m"`, `import "m"`,
; `export … from "m"`, `require("m")`, `import("m")`.
(import_statement source: (string) @import)
(export_statement source: (string) @import)
((call_expression
   function: (identifier) @_require
   arguments: (arguments . (string) @import))
 (#eq? @_require "require"))
(call_expression
  function: (import)
  arguments: (arguments . (string) @import))

; A class expression assigned to a constant owns its methods.
(variable_declarator name: (identifier) @name value: (class)) @scope

; Functions at file level or exported (never nested in a function body).
(program
  [(function_declaration name: (_) @name body: (_) @body)
   (generator_function_declaration name: (_) @name body: (_) @body)] @definition.function)
(export_statement
  declaration: [(function_declaration name: (_) @name body: (_) @body)
                (generator_function_declaration name: (_) @name body: (_) @body)] @definition.function)

; Arrow functions and function expressions assigned to a top-level constant
; (the first declarator of the declaration) are functions.
(program
  (_ . (variable_declarator
         name: (_) @name
         value: [(arrow_function body: (_) @body)
                 (function_expression body: (_) @body)
                 (generator_function body: (_) @body)])) @definition.function)
(export_statement
  declaration: (_ . (variable_declarator
                      name: (_) @name
                      value: [(arrow_function body: (_) @body)
                              (function_expression body: (_) @body)
                              (generator_function body: (_) @body)])) @definition.function)

; Functions assigned at top level: `module.exports.f = function () {}`.
(program
  (expression_statement
    (assignment_expression
      left: [(identifier) @name (member_expression property: (_) @name)]
      right: [(arrow_function body: (_) @body)
              (function_expression body: (_) @body)
              (generator_function body: (_) @body)]) @definition.function))

; Classes.
(class_declaration name: (_) @name body: (_) @body) @definition.class

; Methods: class methods (constructors and accessors too) and
; arrow-function fields.
(class_body (method_definition name: (_) @name body: (_) @body) @definition.method)
(class_body
  (field_definition
    property: (_) @name
    value: [(arrow_function body: (_) @body)
            (function_expression body: (_) @body)]) @definition.method)

; Top-level variables: every `const`/`let`/`var` at file level (or exported)
; whose first value is not a function, and the later declarators of a
; multi-declarator statement.
(program
  (_ . (variable_declarator
         name: (_) @name
         value: (_) @body)) @definition.variable)
(export_statement
  declaration: (_ . (variable_declarator
                      name: (_) @name
                      value: (_) @body)) @definition.variable)
(program
  (_ . (variable_declarator name: (_) @name !value)) @definition.variable)
(export_statement
  declaration: (_ . (variable_declarator name: (_) @name !value)) @definition.variable)
(program
  (_ (variable_declarator) . (variable_declarator name: (_) @name value: (_)? @body) @definition.variable))
(export_statement
  declaration: (_ (variable_declarator) . (variable_declarator name: (_) @name value: (_)? @body) @definition.variable))

; Static class fields (constants such as `static MAX = 10`).
(class_body
  (field_definition
    "static"
    property: (_) @name
    value: (_) @body) @definition.variable)
(class_body
  (field_definition "static" property: (_) @name !value) @definition.variable)

; Lua.
;
; Conventions:
; - Doc comments are the comments touching the definition: LDoc's (and
;   LuaLS/EmmyLua's) blocks start with `---` and go on with `--` lines
;   (`-- @param a …`), `--[[ ]]` blocks too; the comments at the top of
;   the file are the header.
; - Functions: `function f()`, `local function f()`, `f = function() end`;
;   `function M.f()` is a function owned by `M`, `function M:f()` a method of
;   `M`; a function stored in a table field (`{ f = function() end }`) is a
;   function, also under a string key (`M["a/b"] = function() end`, named
;   `a/b`). A function inside another is owned by it.
; - Values: file-level `local x = …` and global assignments are variables,
;   `M.x = …` a field of `M`; those in functions are locals (dropped by the
;   engine). A `local X <const>` is a constant.
; - References: calls by the called name (`f()`, `M.f()`, `obj:f()`: `f`),
;   and `require("a.b")` as an import.

(chunk (comment) @header)
(comment) @doc

; Functions and methods.
(function_declaration name: (identifier) @name body: (_)? @body) @definition.function
(function_declaration
  name: (dot_index_expression table: (_) @owner field: (identifier) @name)
  body: (_)? @body) @definition.function
(function_declaration
  name: (method_index_expression table: (_) @owner method: (identifier) @name)
  body: (_)? @body) @definition.method
(assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (function_definition body: (_)? @body) .)) @definition.function
(assignment_statement
  (variable_list . name: (dot_index_expression table: (_) @owner field: (identifier) @name) .)
  (expression_list . value: (function_definition body: (_)? @body) .)) @definition.function
(field name: (identifier) @name value: (function_definition body: (_)? @body)) @definition.function
; A function under a string key: `M["textDocument/hover"] = function() end`,
; `{ [".alias"] = function() end }` (named by the key's text).
(assignment_statement
  (variable_list . name: (bracket_index_expression table: (_) @owner field: (string content: (string_content) @name)) .)
  (expression_list . value: (function_definition body: (_)? @body) .)) @definition.function
(field name: (string content: (string_content) @name) value: (function_definition body: (_)? @body)) @definition.function

; Values: the first name of an assignment (`local a, b = 1, 2` is named
; `a`); `M.x = …` a field owned by `M`. A value holding a function is that
; function (above).
((variable_declaration
   [(assignment_statement (variable_list . name: (identifier) @name))
    (variable_list . name: (identifier) @name)]) @definition.variable
  (#not-match? @definition.variable "^local\\s+[A-Za-z_][A-Za-z0-9_]*\\s*<const>"))
((variable_declaration
   [(assignment_statement (variable_list . name: (identifier) @name))
    (variable_list . name: (identifier) @name)]) @definition.constant
  (#match? @definition.constant "^local\\s+[A-Za-z_][A-Za-z0-9_]*\\s*<const>"))
((chunk
   (assignment_statement (variable_list . name: (identifier) @name)) @definition.variable))
(chunk
  (assignment_statement
    (variable_list . name: (dot_index_expression table: (identifier) @owner field: (identifier) @name))) @definition.field)

; References.
(function_call
  name: [
    (identifier) @name
    (dot_index_expression field: (identifier) @name)
    (method_index_expression method: (identifier) @name)
  ]) @reference.call
((function_call
   name: (identifier) @_require
   arguments: (arguments . (string content: (string_content) @import @name))) @reference.import
  (#eq? @_require "require"))

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read

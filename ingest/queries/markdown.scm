; Markdown (block grammar of tree-sitter-md).
; Frontmatter is read by the Markdown extractor itself, before parsing.

; Headings, ATX (# Title) and setext (Title / ===).
(atx_heading) @heading
(setext_heading) @heading

; The language of each fenced code block.
(fenced_code_block
  (info_string (language) @code.language))

; Link reference definitions (`[label]: url "title"`), anywhere: they give
; reference links (`[text][label]`, `[label][]`, `[label]`) their URL.
(link_reference_definition
  (link_label) @reference.label
  (link_destination) @reference.url)

; Inline content, searched for links with markdown_inline.scm.
(inline) @inline

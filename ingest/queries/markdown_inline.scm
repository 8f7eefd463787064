; Markdown inline grammar: links inside paragraphs, lists and headings.

(inline_link
  (link_text) @link.text
  (link_destination) @link.url)

(uri_autolink) @link.autolink

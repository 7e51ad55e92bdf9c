import MarkdownIt from 'markdown-it'
import { createMemo } from 'solid-js'

/**
 * html:false makes markdown-it escape every tag in the source, and its validateLink refuses
 * javascript:, vbscript:, file: and non-image data: URLs, so the HTML it returns holds only markup
 * it generated itself. That is why assigning it to innerHTML is safe here and nowhere else.
 */
function createRenderer() {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false })
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]?.attrSet('target', '_blank')
    tokens[idx]?.attrSet('rel', 'noopener noreferrer nofollow')
    return defaultLinkOpen(tokens, idx, options, env, self)
  }
  return md
}

const md = createRenderer()

/** Markdown to safe HTML (see createRenderer). */
export function renderMarkdown(source: string): string {
  return md.render(source)
}

/** Text from a model or a person, rendered as Markdown with HTML shown as text. */
export function Markdown(props: { text: string; class?: string }) {
  const html = createMemo(() => renderMarkdown(props.text))
  return <div class={`markdown ${props.class ?? ''}`} innerHTML={html()} />
}

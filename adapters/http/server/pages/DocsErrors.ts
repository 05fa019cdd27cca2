/**
 * `/docs/errors`: every error code with its status and type, when it happens, what the merchant
 * should do, and an example of its envelope; one anchor per code (the envelope's `docs_url`).
 * A code is never broken inside a word: on a 390 px phone each stays whole on its line, and an
 * example too wide for the screen scrolls inside its own box, not the page.
 */
import { HttpRouter, HttpServerResponse } from "effect/http"
import { ErrorCatalog, errorCodes } from "../../../../core/ApiError.ts"
import { errorExample, errorGuide } from "../../api/ErrorGuide.ts"
import { escapeHtml } from "./Html.ts"
import { httpStatus } from "../../api/ErrorStatus.ts"

/** Escaped text with its `code spans` as `<code>`. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>")

const section = (code: (typeof errorCodes)[number]) => {
  const e = ErrorCatalog[code]
  return `<section id="${code}" aria-labelledby="h-${code}">
<h2 id="h-${code}"><code>${code}</code></h2>
<p class="meta">HTTP ${httpStatus[code]} · <code>${e.type}</code></p>
<p>${prose(e.description)}</p>
<p class="advice"><strong>What to do:</strong> ${prose(errorGuide[code].advice)}</p>
<pre tabindex="0" aria-label="Example body of ${code}"><code>${escapeHtml(JSON.stringify(errorExample(code), null, 2))}</code></pre>
</section>`
}

export const errorsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error codes</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.5}
body{margin:0;background:Canvas;color:CanvasText}
main{max-width:48rem;margin:0 auto;padding:1rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
h2 code,nav code{white-space:nowrap}
h2{font-size:1rem;margin:0 0 .25rem}
h2 code{font-size:1rem}
section{border-top:1px solid #8886;padding:.9rem 0}
section:target{background:#fff6d6;color:#111}
.meta{margin:0;opacity:.85}
.advice{margin:.4rem 0}
pre{margin:.4rem 0 0;padding:.6rem;border:1px solid #8886;border-radius:.4rem;overflow-x:auto;font-size:.8rem;line-height:1.4}
pre code{white-space:pre;font-size:inherit}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem .9rem;padding:0;list-style:none}
</style></head>
<body><main>
<h1>Error codes</h1>
<p>Every error answers <code>{ "error": { code, type, message, requestId, docs_url, details } }</code> with the status below.
Switch on <code>error.code</code>; <code>message</code> is for a person and may change. See also the <a href="/docs">API reference</a>.</p>
<nav aria-label="Codes"><ul>
${errorCodes.map((code) => `<li><a href="#${code}"><code>${code}</code></a></li>`).join("\n")}
</ul></nav>
${errorCodes.map(section).join("\n")}
</main></body></html>`

export const DocsErrors = HttpRouter.add("GET", "/docs/errors", HttpServerResponse.html(errorsPage))

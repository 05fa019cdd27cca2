/**
 * A line chart as inline SVG, drawn by the server: no script, nothing from another host, and the
 * same numbers in a table after it for a screen reader (the SVG is one labelled image). Values are
 * display numbers, never money arithmetic.
 */
import { escapeHtml } from "../server/pages/Html.ts"

export interface Series {
  readonly name: string
  /** One value per label; null where there is none. */
  readonly values: ReadonlyArray<number | null>
}

const palette = ["#1d4ed8", "#b45309", "#166534", "#7e22ce", "#b91c1c"]
const width = 640
const height = 220
const pad = { left: 56, right: 12, top: 12, bottom: 28 }

const tick = (value: number) => Math.abs(value) >= 1000 ? `${(value / 1000).toFixed(1)}k` : value.toFixed(Math.abs(value) < 10 ? 2 : 0)

export const lineChart = (options: {
  readonly title: string
  readonly labels: ReadonlyArray<string>
  readonly series: ReadonlyArray<Series>
  /** The table's caption and first column header. */
  readonly labelHeader: string
}) => {
  const all = options.series.flatMap((s) => s.values.filter((v): v is number => v !== null))
  const min = Math.min(0, ...all)
  const max = Math.max(min + 1e-9, ...all)
  const n = Math.max(1, options.labels.length - 1)
  const x = (i: number) => pad.left + (i / n) * (width - pad.left - pad.right)
  const y = (v: number) => pad.top + (1 - (v - min) / (max - min)) * (height - pad.top - pad.bottom)
  const lines = options.series.map((s, k) => {
    const points = s.values.flatMap((v, i) => v === null ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`])
    // A value with no neighbour draws no line: it is drawn as a dot, so that it is seen.
    const alone = s.values.flatMap((v, i) =>
      v === null || (s.values[i - 1] ?? null) !== null || (s.values[i + 1] ?? null) !== null
        ? []
        : [`<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${palette[k % palette.length]}"/>`]
    )
    return `<polyline fill="none" stroke="${palette[k % palette.length]}" stroke-width="2" points="${points.join(" ")}"/>${alone.join("")}`
  })
  const grid = [min, (min + max) / 2, max].map((v) =>
    `<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e4e4e7"/><text x="${pad.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" font-size="11" fill="#52525b">${tick(v)}</text>`
  )
  const first = options.labels[0] ?? ""
  const last = options.labels[options.labels.length - 1] ?? ""
  const legend = options.series.map((s, k) =>
    `<tspan fill="${palette[k % palette.length]}">■</tspan> ${escapeHtml(s.name)}`
  ).join("   ")
  const svg = `<svg class="chart" viewBox="0 0 ${width} ${height + 18}" role="img" aria-label="${escapeHtml(options.title)}">
${grid.join("")}${lines.join("")}
<text x="${pad.left}" y="${height - 8}" font-size="11" fill="#52525b">${escapeHtml(first)}</text>
<text x="${width - pad.right}" y="${height - 8}" font-size="11" fill="#52525b" text-anchor="end">${escapeHtml(last)}</text>
<text x="${pad.left}" y="${height + 12}" font-size="12" fill="#18181b">${legend}</text></svg>`
  const rows = options.labels.map((label, i) =>
    `<tr><th scope="row">${escapeHtml(label)}</th>${options.series.map((s) => `<td class="num">${s.values[i] === null || s.values[i] === undefined ? "—" : escapeHtml(String(s.values[i]))}</td>`).join("")}</tr>`
  )
  return `<figure>${svg}<details><summary>${escapeHtml(options.title)}</summary><div class="table-wrap" tabindex="0" role="region" aria-label="${escapeHtml(options.title)}"><table><thead><tr><th scope="col">${escapeHtml(options.labelHeader)}</th>${
    options.series.map((s) => `<th scope="col" class="num">${escapeHtml(s.name)}</th>`).join("")
  }</tr></thead><tbody>${rows.join("")}</tbody></table></div></details></figure>`
}

import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** The theme's colours as the page's CSS has them, read when the chart is drawn (light or dark alike). */
function themeColours() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return { line: v('--primary', '#4f46e5'), text: v('--muted', '#5b6470'), grid: v('--border', '#dfe3e8') };
}

const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000, 10_000_000];

/**
 * A count per time bucket as a line (uPlot, a canvas: its figures are also said in the caption beside it).
 * Redrawn when the theme changes or the box is resized.
 */
export function TimeChart({ points, label, testId }: { points: { time: string; count: number }[]; label: string; testId: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    const draw = () => {
      plot?.destroy();
      const c = themeColours();
      const axis = { stroke: c.text, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 } };
      plot = new uPlot(
        {
          width: Math.max(200, el.clientWidth),
          height: 180,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
          // Counts are whole numbers: the y axis steps by 1, 2, 5, 10 … and never shows a half.
          axes: [axis, { ...axis, size: 40, incrs: COUNT_STEPS }],
          series: [{}, { label, stroke: c.line, width: 2, fill: `color-mix(in srgb, ${c.line} 15%, transparent)`, points: { show: points.length < 60 } }],
        },
        [points.map((p) => Date.parse(p.time) / 1000), points.map((p) => p.count)],
        el,
      );
    };
    draw();
    const resized = new ResizeObserver(() => plot?.setSize({ width: Math.max(200, el.clientWidth), height: 180 }));
    resized.observe(el);
    const themed = new MutationObserver(draw);
    themed.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    return () => {
      resized.disconnect();
      themed.disconnect();
      plot?.destroy();
    };
  }, [points, label]);
  return <div ref={box} className="time-chart" data-testid={testId} aria-hidden="true" />;
}

// Draws the dashboard's charts with Chart.js from each canvas's data-chart attribute (the page also shows the numbers as tables).
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip,
  type ChartConfiguration,
} from "chart.js";

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip);

interface ChartSpec {
  type: "line" | "bar";
  labels: string[];
  series: Array<{ label: string; data: Array<number | null> }>;
  horizontal?: boolean;
  percent?: boolean;
}

/** Colour-blind-safe (Okabe–Ito), in series order. */
const COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];

function config(spec: ChartSpec): ChartConfiguration {
  const valueAxis = spec.horizontal ? "x" : "y";
  return {
    type: spec.type,
    data: {
      labels: spec.labels,
      datasets: spec.series.map((s, i) => ({
        label: s.label,
        data: s.data,
        backgroundColor: COLOURS[i % COLOURS.length],
        borderColor: COLOURS[i % COLOURS.length],
        spanGaps: true,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: spec.horizontal ? "y" : "x",
      plugins: { legend: { display: spec.series.length > 1 } },
      scales: {
        [valueAxis]: {
          beginAtZero: true,
          ...(spec.percent ? { max: 1, ticks: { callback: (v: string | number) => `${Math.round(Number(v) * 100)}%` } } : { ticks: { precision: 0 } }),
        },
      },
    },
  } as ChartConfiguration;
}

for (const canvas of document.querySelectorAll<HTMLCanvasElement>("canvas[data-chart]")) {
  try {
    const spec = JSON.parse(canvas.dataset.chart ?? "") as ChartSpec;
    if (!spec.labels.length) {
      canvas.replaceWith(Object.assign(document.createElement("p"), { className: "dim", textContent: "No data yet." }));
      continue;
    }
    // One bar per label needs room: a horizontal chart grows with its labels (CSSOM, which the CSP allows).
    if (spec.horizontal && canvas.parentElement) canvas.parentElement.style.height = `${Math.max(210, spec.labels.length * 26 + 60)}px`;
    new Chart(canvas, config(spec));
  } catch (e) {
    console.error("chart failed", e);
  }
}
document.documentElement.dataset.chartsReady = "true";

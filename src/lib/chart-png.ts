/**
 * A chart as a PNG image for slides and mails: uPlot draws plot and axes on a canvas but its
 * title and legend are HTML, so they are painted onto a new canvas around it, on a solid
 * background (a transparent PNG is unreadable on a dark slide).
 */
import { PAGE_WORDS } from './words.ts';

export interface PngLegendItem {
  label: string;
  color: string;
}

const PAD_PX = 16;
const TITLE_PX = 28;
const LEGEND_ROW_PX = 22;

export function chartPng(source: HTMLCanvasElement, title: string, legend: readonly PngLegendItem[], dark: boolean): Promise<Blob> {
  const scale = source.width / Math.max(1, source.clientWidth || source.width);
  const perRow = 4;
  const legendRows = Math.ceil(legend.length / perRow);
  const canvas = document.createElement('canvas');
  canvas.width = source.width + 2 * PAD_PX * scale;
  canvas.height = source.height + (2 * PAD_PX + TITLE_PX + legendRows * LEGEND_ROW_PX) * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error(PAGE_WORDS.noCanvas()));
  ctx.fillStyle = dark ? '#1f2023' : '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = dark ? '#e9ecef' : '#212529';
  ctx.font = `600 ${16 * scale}px system-ui, sans-serif`;
  ctx.fillText(title, PAD_PX * scale, (PAD_PX + 16) * scale);
  ctx.drawImage(source, PAD_PX * scale, (PAD_PX + TITLE_PX) * scale);
  ctx.font = `${13 * scale}px system-ui, sans-serif`;
  const columnWidth = source.width / perRow;
  legend.forEach((item, i) => {
    const x = PAD_PX * scale + (i % perRow) * columnWidth;
    const y = (PAD_PX + TITLE_PX) * scale + source.height + (Math.floor(i / perRow) * LEGEND_ROW_PX + 16) * scale;
    ctx.fillStyle = item.color;
    ctx.fillRect(x, y - 8 * scale, 14 * scale, 4 * scale);
    ctx.fillStyle = dark ? '#e9ecef' : '#212529';
    ctx.fillText(item.label, x + 20 * scale, y);
  });
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(PAGE_WORDS.notEncoded()))), 'image/png'));
}

export function prefersDark(): boolean {
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

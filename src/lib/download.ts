/** Saves text or a blob as a file through the browser's download. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The download has its own copy once started; free the blob after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function downloadText(fileName: string, type: string, text: string): void {
  downloadBlob(fileName, new Blob([text], { type }));
}

/** A file name from a label: letters, digits and dashes only. */
export function fileStem(label: string): string {
  return label.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80) || 'run';
}

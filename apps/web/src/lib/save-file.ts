// Hands a file the page made or fetched to the browser's downloads, under the given name.
export function saveFile(fileName: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the data by the next turn of the event loop.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

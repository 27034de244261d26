/** How far a model's download has come. */
export interface DownloadProgress {
  downloadedBytes: number;
  totalBytes: number;
  percent: number;
}

import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** The media library (/media) as a person sees it: breadcrumb, folders, files, uploader, dialogs. */
export class MediaScreen {
  constructor(private page: Page) {}

  breadcrumb = () => this.page.getByTestId('media-breadcrumb');
  crumbs = async () => (await this.breadcrumb().getByTestId('crumb').allInnerTexts()).map((t) => t.trim());
  folder = (title: string) => this.page.getByTestId('folder').filter({ has: this.page.getByTestId('open-folder').getByText(title, { exact: true }) });
  folderTitles = async () => (await this.page.getByTestId('open-folder').allInnerTexts()).map((t) => t.trim());
  file = (name: string) => this.page.getByTestId('file').filter({ has: this.page.getByTestId('file-name').getByText(name, { exact: true }) });
  fileNames = async () => (await this.page.getByTestId('file-name').allInnerTexts()).map((t) => t.trim());
  uploadRow = (name: string) => this.page.getByTestId('upload-item').filter({ has: this.page.getByTestId('upload-name').getByText(name, { exact: true }) });
  dialog = () => this.page.getByRole('dialog');

  async open(folderId?: string) {
    await this.page.goto(folderId ? `/media?folder=${folderId}` : '/media');
    await this.ready();
  }

  /** Breadcrumb, folders and files are on screen (not the loading state). */
  async ready() {
    await this.breadcrumb().waitFor();
    await this.page.locator('[data-testid=folder-list], [data-testid=no-folders]').first().waitFor();
    await this.page.locator('[data-testid=file-list], [data-testid=no-files]').first().waitFor();
  }

  /** The current folder's id from the address (null at the root). */
  currentFolder(): string | null {
    return new URL(this.page.url()).searchParams.get('folder');
  }

  async newFolder(title: string) {
    await this.page.getByTestId('new-folder').click();
    await this.dialog().locator('[name=fo_title]').fill(title);
    await this.dialog().getByTestId('folder-dialog-submit').click();
    await this.dialog().waitFor({ state: 'hidden' });
    await this.folder(title).waitFor();
  }

  async enter(title: string) {
    const before = this.page.url();
    await this.folder(title).getByTestId('open-folder').click();
    await this.page.waitForURL((u) => u.toString() !== before && u.searchParams.has('folder'));
    await expect.poll(() => this.crumbs()).toContain(title);
    await this.ready();
  }

  async rename(title: string, to: string) {
    await this.folder(title).getByTestId('rename-folder').click();
    const input = this.dialog().locator('[name=fo_title]');
    expect(await input.inputValue()).toBe(title);
    await input.fill(to);
    await this.dialog().getByTestId('folder-dialog-submit').click();
    await this.dialog().waitFor({ state: 'hidden' });
    await this.folder(to).waitFor();
  }

  /** Sets files on the hidden file input, as the "Choose files" button's picker would. */
  async pick(files: { name: string; mimeType: string; buffer: Buffer }[]) {
    await this.page.getByTestId('upload-input').setInputFiles(files);
  }

  /** Drops files on the drop zone (a real DataTransfer built in the page). */
  async drop(files: { name: string; mimeType: string; buffer: Buffer }[]) {
    const payload = files.map((f) => ({ name: f.name, type: f.mimeType, data: f.buffer.toString('base64') }));
    const dataTransfer = await this.page.evaluateHandle((items) => {
      const dt = new DataTransfer();
      for (const item of items) {
        const bytes = Uint8Array.from(atob(item.data), (c) => c.charCodeAt(0));
        dt.items.add(new File([bytes], item.name, { type: item.type }));
      }
      return dt;
    }, payload);
    const zone = this.page.getByTestId('dropzone');
    await zone.dispatchEvent('dragover', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });
  }

  /** Whether an <img> has loaded real pixels. */
  static async loaded(img: Locator): Promise<boolean> {
    return img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);
  }
}

/** A PNG or JPEG drawn by the browser itself (a gradient with a label), so the test needs no image files. */
export async function drawImage(page: Page, type: 'image/png' | 'image/jpeg', label: string, hue: number, width = 480, height = 320): Promise<Buffer> {
  const base64 = await page.evaluate(
    ({ type, label, hue, width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const g = canvas.getContext('2d')!;
      const gradient = g.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, `hsl(${hue}, 70%, 55%)`);
      gradient.addColorStop(1, `hsl(${hue + 70}, 65%, 35%)`);
      g.fillStyle = gradient;
      g.fillRect(0, 0, width, height);
      g.fillStyle = '#ffffff';
      g.font = `bold ${Math.round(height / 6)}px sans-serif`;
      g.fillText(label, width / 12, height / 2);
      return canvas.toDataURL(type, 0.9).split(',')[1];
    },
    { type, label, hue, width, height },
  );
  return Buffer.from(base64, 'base64');
}

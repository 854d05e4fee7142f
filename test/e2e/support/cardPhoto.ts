import type { Browser } from 'playwright-core';

export interface Card {
  name: string;
  line: string;
  email: string;
  phone: string;
}

/**
 * A business card as a camera gives it: drawn on a 1000×600 canvas in the browser (a card on a grey table) and
 * encoded as JPEG, the bytes a capture device uploads to PUT /lead-files/{id}.
 */
export async function cardPhotoJpeg(browser: Browser, card: Card): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const b64 = await page.evaluate((c) => {
      const canvas = document.createElement('canvas');
      canvas.width = 1000;
      canvas.height = 600;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#5a5a5a';
      g.fillRect(0, 0, 1000, 600);
      g.fillStyle = '#fbfaf5';
      g.fillRect(80, 70, 840, 460);
      g.fillStyle = '#1d3c8f';
      g.fillRect(80, 70, 18, 460);
      g.fillStyle = '#111';
      g.font = 'bold 56px sans-serif';
      g.fillText(c.name, 150, 200);
      g.font = '32px sans-serif';
      g.fillText(c.line, 150, 260);
      g.fillText(c.email, 150, 390);
      g.fillText(c.phone, 150, 440);
      return canvas.toDataURL('image/jpeg', 0.85).split(',')[1];
    }, card);
    return Buffer.from(b64, 'base64');
  } finally {
    await page.close();
  }
}

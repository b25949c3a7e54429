import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--disable-gpu'] });
const p = await b.newPage();
await p.goto('http://127.0.0.1:3301/fleet');
await p.waitForSelector('[data-testid="fleet-tile-word"]');
console.log(
  await p.evaluate(() =>
    [...document.querySelectorAll('[data-testid="fleet-tile-word"]')].map((el) => {
      const fs = parseFloat(getComputedStyle(el).fontSize);
      const r = document.createRange();
      r.selectNodeContents(el);
      const icon = el.firstElementChild.getBoundingClientRect().width;
      return [
        el.textContent,
        fs,
        (r.getBoundingClientRect().width / fs).toFixed(2),
        (icon / fs).toFixed(2),
        el.clientWidth,
      ];
    }),
  ),
);
await b.close();

import assert from 'node:assert/strict';
import { before, beforeEach, describe, it } from 'node:test';
import type { MouseEvent } from 'react';

/** The little of the browser's `window` the router uses: a location, a history that records, and events. */
class BrowserWindow extends EventTarget {
  location = { pathname: '/' };
  pushed: string[] = [];
  scrolls = 0;
  history = {
    pushState: (_state: unknown, _title: string, to: string) => {
      this.pushed.push(to);
      this.location.pathname = to;
    },
  };
  scrollTo() {
    this.scrolls++;
  }
  confirm() {
    return true;
  }
}

const browser = new BrowserWindow();
let router: typeof import('./router.ts');

const click = (init: Partial<MouseEvent> = {}) => {
  let prevented = false;
  const event = { button: 0, defaultPrevented: false, preventDefault: () => (prevented = true), ...init };
  return { event: event as MouseEvent, prevented: () => prevented };
};

describe('router', () => {
  before(async () => {
    Object.assign(globalThis, { window: browser });
    router = await import('./router.ts'); // reads window when loaded
  });
  beforeEach(() => {
    browser.pushed = [];
    browser.scrolls = 0;
  });

  it('navigate pushes the path and scrolls to the top; the path already shown is left alone', () => {
    router.navigate('/bans');
    assert.deepEqual(browser.pushed, ['/bans']);
    assert.equal(browser.scrolls, 1);
    router.navigate('/bans');
    assert.deepEqual(browser.pushed, ['/bans']);
  });

  it('a plain left click on a link navigates in the app, instead of loading the page', () => {
    const props = router.linkProps('/peers/100');
    assert.equal(props.href, '/peers/100');
    const plain = click();
    props.onClick(plain.event);
    assert.equal(plain.prevented(), true);
    assert.equal(browser.location.pathname, '/peers/100');
  });

  it('a click with a modifier, another button or already handled is left to the browser (new tab...)', () => {
    const props = router.linkProps('/audit');
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      const other = click(init);
      props.onClick(other.event);
      assert.equal(other.prevented(), false, JSON.stringify(init));
    }
    props.onClick(click({ defaultPrevented: true }).event);
    assert.deepEqual(browser.pushed, []);
  });

  it('Back and Forward (popstate) are followed when nothing is unsaved', () => {
    browser.location.pathname = '/settings';
    browser.dispatchEvent(new Event('popstate'));
    assert.deepEqual(browser.pushed, [], 'the path the browser went to is kept');
    assert.equal(browser.location.pathname, '/settings');
  });
});

// The popover's entry: the tray app's preload bridge when present, else `lookout serve`.
import { render } from 'preact';
import { App } from './App';
import type { LookoutBridge } from './transport';
import { bridgeTransport, webTransport } from './transport';

declare global {
  interface Window {
    lookout?: LookoutBridge;
  }
}

/**
 * `lookout serve`'s token: given once in the page, then kept in this tab's session storage and
 * taken out of the address bar (and so out of the history and of anything the URL is shared with).
 */
function serveToken(): string {
  const given = document.querySelector<HTMLMetaElement>('meta[name="lookout-token"]')?.content ?? '';
  if (given !== '') {
    sessionStorage.setItem('lookout-token', given);
    const url = new URL(location.href);
    if (url.searchParams.has('token')) {
      url.searchParams.delete('token');
      history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
    }
    return given;
  }
  return sessionStorage.getItem('lookout-token') ?? '';
}

const token = window.lookout !== undefined ? '' : serveToken();
const transport = window.lookout !== undefined ? bridgeTransport(window.lookout) : webTransport(token);
const root = document.getElementById('root');
if (root !== null) render(<App transport={transport} />, root);

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

const token = document.querySelector<HTMLMetaElement>('meta[name="lookout-token"]')?.content ?? '';
const transport = window.lookout !== undefined ? bridgeTransport(window.lookout) : webTransport(token);
const root = document.getElementById('root');
if (root !== null) render(<App transport={transport} />, root);

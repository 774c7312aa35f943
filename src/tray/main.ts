// Electron's entry (npm start): real Electron parts into the tested shell.
import { Menu, Notification, Tray, app, globalShortcut, ipcMain, nativeImage, powerMonitor } from 'electron';
import { menubar } from 'menubar';
import type { ElectronParts, MenubarFactory } from './tray-app';
import { startTray } from './tray-app';

const parts: ElectronParts = {
  app,
  ipcMain,
  createTray: (image) => new Tray(image),
  image: (x1, x2, template) => {
    const image = nativeImage.createFromBuffer(x1, { scaleFactor: 1 });
    image.addRepresentation({ scaleFactor: 2, buffer: x2 });
    image.setTemplateImage(template);
    return image;
  },
  buildMenu: (template) => Menu.buildFromTemplate(template),
  notification: (options) => new Notification(options),
  notificationsSupported: () => Notification.isSupported(),
  globalShortcut,
  powerMonitor,
};

const factory: MenubarFactory = (options) => menubar(options);

startTray(parts, factory, __dirname, process.env).catch((error: unknown) => {
  console.error(`lookout: the tray app could not start: ${error instanceof Error ? error.message : String(error)}`);
  app.quit();
});

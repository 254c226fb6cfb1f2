/**
 * Contract of APPUiO's UpgradeSuspensionWindow: its descriptor
 * (docs/design/scheduled-flow.md#upgradesuspensionwindow). No TypeBox here.
 */
import { resource } from '../../resource.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import type { UpgradeSuspensionWindow } from './upgrade-suspension-window.js';

/** Descriptor of UpgradeSuspensionWindow (namespaced). */
export const UpgradeSuspensionWindowResource = resource<UpgradeSuspensionWindow>({
  group: APPUIO_GROUP,
  version: APPUIO_VERSION,
  kind: 'UpgradeSuspensionWindow',
  plural: 'upgradesuspensionwindows',
  namespaced: true,
});

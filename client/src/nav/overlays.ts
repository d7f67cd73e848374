/** The frame's overlay code, loaded after the first render (see use-overlays). */
export { HelpMenuDropdown, UserMenuDropdown } from './MenuDropdowns';
export { OverflowTooltipImpl } from './OverflowTooltipImpl';
export { SwitcherMenu } from './SwitcherMenu';
export { DrawerImpl } from './DrawerImpl';
export { NAV_ICONS } from './nav-icons';

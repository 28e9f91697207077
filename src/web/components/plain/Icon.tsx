/*
 * The few Material icons the plain screens show, as inline SVG paths (the same drawings as
 * @mui/icons-material, without MUI's SvgIcon and its styling engine).
 */
const PATHS = {
  add: 'M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6z',
  up: 'm4 12 1.41 1.41L11 7.83V20h2V7.83l5.58 5.59L20 12l-8-8z',
  down: 'm20 12-1.41-1.41L13 16.17V4h-2v12.17l-5.58-5.59L4 12l8 8z',
  edit: 'M3 17.25V21h3.75L17.81 9.94l-3.75-3.75zM20.71 7.04c.39-.39.39-1.02 0-1.41l-2.34-2.34a.996.996 0 0 0-1.41 0l-1.83 1.83 3.75 3.75z',
  delete: 'M6 19c0 1.1.9 2 2 2h8c1.1 0 2-.9 2-2V7H6zM19 4h-3.5l-1-1h-5l-1 1H5v2h14z',
  download: 'M5 20h14v-2H5zM19 9h-4V3H9v6H5l7 7z',
  close:
    'M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z',
  info: 'M11,9H13V7H11M12,20C7.59,20 4,16.41 4,12C4,7.59 7.59,4 12,4C16.41,4 20,7.59 20, 12C20,16.41 16.41,20 12,20M12,2A10,10 0 0,0 2,12A10,10 0 0,0 12,22A10,10 0 0,0 22,12A10, 10 0 0,0 12,2M11,17H13V11H11V17Z',
  warning: 'M12 5.99L19.53 19H4.47L12 5.99M12 2L1 21h22L12 2zm1 14h-2v2h2v-2zm0-6h-2v4h2v-4z',
} as const;

export type IconName = keyof typeof PATHS;

/** Decorative: the control that shows it carries the accessible name. */
export function Icon({ name, size = 24 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="plain-icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}

/**
 * A round icon button named by its label; the label also shows as a tooltip on hover and
 * keyboard focus (shell.css), as MUI's Tooltip did.
 */
export function IconButton({
  id,
  label,
  icon,
  disabled,
  onClick,
}: {
  id?: string;
  label: string;
  icon: IconName;
  disabled?: boolean;
  onClick(): void;
}) {
  return (
    <button
      type="button"
      id={id}
      className="plain-icon-button"
      aria-label={label}
      data-tooltip={disabled ? undefined : label}
      disabled={disabled}
      onClick={onClick}
    >
      <Icon name={icon} />
    </button>
  );
}

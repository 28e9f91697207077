import { Icon } from './Icon.tsx';

/**
 * Information or a warning, with MUI's icon, as MUI's Alert draws them (its role is "alert" too).
 * With `onClose`, a "Cerrar" button dismisses it. Apart from PlainAlert: the sign-in steps load
 * that one and need neither the icons nor the button.
 */
export function PlainNotice({
  message,
  severity,
  onClose,
}: {
  message: string | null;
  severity: 'info' | 'warning';
  onClose?: () => void;
}) {
  return message ? (
    <div className={`plain-alert plain-alert-${severity}`} role="alert">
      <span className="plain-alert-icon">
        <Icon name={severity} size={22} />
      </span>
      <div className="plain-alert-message">{message}</div>
      {onClose ? (
        <button type="button" className="plain-alert-close" aria-label="Cerrar" onClick={onClose}>
          <Icon name="close" size={20} />
        </button>
      ) : null}
    </div>
  ) : null;
}

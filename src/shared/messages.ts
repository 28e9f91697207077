/**
 * Every user-visible message, spelled exactly as the product's catalogue has it (typos included:
 * they are the product's text) plus the ones our rules add. Server and web import from here only;
 * the few a screen shows when the rest of the app cannot be fetched also ship on their own
 * (./messages-offline.ts).
 */
import { OFFLINE_MSG } from './messages-offline.ts';

export const MSG = {
  ...OFFLINE_MSG,
  genericErrorLower: 'ha ocurrido un error',
  accountNotFound: 'La cuenta no existe',
  adminEmailInUse: 'La dirección ingresada ya está en uso.',
  exhibitorEmailIsAdmin: 'El mail ya está registrado como administrador',
  exhibitorAlreadyInEvent: 'El mail ingresado ya está registrado como expositor',
  exhibitorInOtherEvent: 'El mail ingresado pertenece a un expositor de otro evento',
  notificationFailed: 'No se pudo eviar la notificación',
  invalidDates: 'Las fechas no son válidas',
  deadlineAfterEvent: 'La fecha límite debe ser previa a la fecha del evento',
  invalidCloseTime: 'La hora de cierre no es válida: use hh:mm, por ejemplo 23:59.',
  invalidTimeZone: 'La zona horaria no es válida.',
  invalidOpening: 'La apertura de la votación no es válida: indique fecha y hora.',
  openingAfterClose: 'La apertura de la votación debe ser anterior al cierre.',
  wrongPassword: 'La contraseña es incorrecta.',
  signInFailed: 'No se pudo iniciar sesión.',
  resetMailSent: 'Se envió el mail correctamente.',
  duplicateFiscalId: 'Ya se voto por este reseller',
  adminDuplicateFiscalId: 'El expositor ya ha votado a ese ID fiscal',
  noLogoFile: 'No se seleccionó ningún archivo',
  logoNotPng: 'Por favor, utilice el formato sugerido',
  logoTooWide: 'El logo no puede medir más de 2000 píxeles de ancho ni de alto.',
  invalidUpload: 'No se pudo leer el archivo enviado. Intente de nuevo.',
  deleteEventFailed: 'Error: no se ha podido eliminar el evento',
  nominationLimit: 'Ya has alcanzado el limite de nominaciones',
  votingClosed: 'El período de votación ha terminado',
  previewNothingSaved: 'Vista previa: nada se guarda.',
  previewNotice:
    'Vista previa: así ve este evento un expositor invitado. Nada de lo que haga aquí se guarda.',
  votingNotOpenYet: 'La votación todavía no abrió: el evento es un borrador.',
  votingStillOpen: 'La votación sigue abierta: los resultados pueden cambiar.',
  noNominations: 'No has nominado a nadie todavía',
  adminPasswordMismatch: 'Las contraseñas ingresadas no son iguales',
  resetPasswordMismatch: 'Las contraseñas son diferentes.',
  weakPassword: 'Su contraseña es insegura',
  resetWeakPassword: 'La contraseña debe tener al menos 8 caracteres',
  resetFailed: 'No se pudo cambiar la contraseña, intente de nuevo más tarde',
  noVotes: 'No hay votos',
  noVotesForNominee: 'No se encontraron votos',
  exhibitorNotFound: 'No se encontró el expositor',
  noEvents: 'No se encontraron eventos',
  noArchivedEvents: 'No hay eventos archivados',
  noExhibitors: 'No se encontraron expositores',
  eventNotFound: 'No se econtró el evento',
  eventArchived: 'El evento está archivado',
  eventNotOver: 'El evento solo puede archivarse después de su fecha',
  eventNotArchived: 'El evento no está archivado',
  eventDuplicated: 'El evento fue duplicado',
  eventArchivedNotice: 'El evento fue archivado',
  eventUnarchivedNotice: 'El evento fue desarchivado',
  eventAnonymisedNotice: 'Los datos personales del evento fueron anonimizados',
  eventLogoSaved: 'El logo del evento fue guardado',
  eventLogoRemoved: 'El evento vuelve a mostrar el logo del programa',
  eventHasOwnLogo: 'Sus expositores ven este logo en sus pantallas, emails y presentación.',
  eventUsesProgrammeLogo: 'El evento muestra el logo del programa.',
  eventArchivedReadOnly:
    'El evento está archivado: solo lectura para todos, y los expositores ya no lo ven.',
  eventArchivedAnonymised: 'El evento está archivado y sus datos personales fueron anonimizados.',
  archiveEventWarning:
    'El evento quedará en solo lectura para todos y los expositores dejarán de verlo. Puede desarchivarse después.',
  eventAlreadyAnonymised: 'Los datos personales de este evento ya fueron anonimizados',
  pageNotFound: 'La página no existe.',
  // Not in the original catalogue: added by our own rules (codes, links, limits, conflicts).
  invalidCode: 'El código ingresado no es válido o ha expirado',
  invitationResendLimit:
    'Esta invitación ya se reenvió varias veces en la última hora. Intente de nuevo más tarde.',
  invitationWithheld:
    'Los datos se guardaron, pero la invitación no se envió: esta dirección ya recibió varias invitaciones en la última hora. Puede reenviarla más tarde.',
  invalidCharacters: 'El texto contiene caracteres no permitidos.',
  codeTriesExhausted:
    'Demasiados intentos con códigos desde este dispositivo. Ingrese con el enlace del último correo que recibió (botón «acceder»), o espere una hora e intente de nuevo.',
  invalidSignInLink:
    'El enlace no es válido, ya fue usado o ha expirado. Vuelva a ingresar su email para recibir uno nuevo.',
  pendingAdminLinkSent: 'Le enviamos un enlace a su correo para completar el registro.',
  codeResent: 'Le enviamos un código por correo. Use el más reciente.',
  passwordChanged: 'Su contraseña fue cambiada. Ingrese con la nueva contraseña.',
  /** "Cambiar contraseña" on /admin/security: this session stays, the others end. */
  ownPasswordChanged: 'Su contraseña fue cambiada. Las demás sesiones de su cuenta se cerraron.',
  adminInvitationSent: 'Se envió la invitación por correo.',
  staleList: 'La lista cambió en otra pestaña o dispositivo. Se cargó la versión actual.',
  fiscalIdReadOnly: 'El ID fiscal no puede modificarse',
  confirmRemoveNominee: '¿Eliminar reseller?',
  confirmRemoveNomineeText: 'Se quitará de la lista y los demás se renumerarán desde 1.',
  tooManyRequests: 'Demasiados intentos. Espere un momento e intente de nuevo.',
  notSignedIn: 'Es necesario iniciar sesión para continuar.',
  forbidden: 'Esta acción no está permitida.',
  apiNotFound: 'El recurso solicitado no existe.',
  invalidInput: 'Los datos ingresados no son válidos.',
  requiredField: 'Este campo es obligatorio',
  /** A correction without its "Motivo" (missing, or the empty choice of the dialog's select). */
  chooseReason: 'Elija un motivo.',
  invalidEmail: 'El email no es válido',
  // Read by exhibitors (tú) and administrators (usted) alike: said without either.
  digitsOnly: 'Solo se admiten números, espacios y guiones',
  invalidToken: 'El enlace no es válido o ha expirado.',
  fileTooLarge: 'El archivo supera el tamaño máximo de 2 MB',
  rosterUnsupportedType: 'El archivo debe ser CSV o Excel (.xlsx).',
  rosterEmpty: 'El archivo está vacío.',
  rosterNoErrors: 'Ninguna fila tiene errores.',
  noExhibitorsSelected: 'Seleccione al menos un expositor.',
  rosterNoEmailColumn: 'El archivo no tiene una columna "Email".',
  rosterTooManyRows: 'El archivo tiene más de 5.000 filas.',
  rosterTooLarge: 'El archivo supera el tamaño máximo de 5 MB.',
  rosterTooManyColumns: 'El archivo tiene más de 100 columnas.',
  rosterUnpackedTooLarge:
    'El archivo Excel ocupa demasiado al descomprimirlo. Guárdelo solo con la hoja de expositores e intente de nuevo.',
  rankingTieRule:
    'A igual puntaje, ubica primero al reseller con más primeros puestos; luego con más segundos, terceros, cuartos y quintos puestos; luego con más nominaciones y, por último, al nominado primero. Quienes empatan en todo comparten el puesto.',
  eventDeleted: 'El evento fue eliminado',
  invitationResent: 'Se reenvió la invitación',
  closeVotingWarning:
    'La votación terminará en este momento: los expositores ya no podrán cambiar sus nominaciones y se cancelarán los recordatorios pendientes.',
  votingClosedNotice: 'Se cerró la votación',
  expectedObject: 'Se esperaba un objeto',
  expectedText: 'Se esperaba un texto',
  expectedNumber: 'Se esperaba un número',
  expectedList: 'Se esperaba una lista',
  expectedBoolean: 'Se esperaba verdadero o falso',
  csrfRejected:
    'La solicitud fue rechazada por seguridad. Hay que recargar la página e intentar de nuevo.',
  mergeNothingLeft: 'Esos ID fiscales ya no tienen votos en esta categoría. Actualice la lista.',
  mergeUnknownInto: 'Elija un ID fiscal que tenga votos en esta categoría.',
  undoStale: 'No se puede deshacer: los votos cambiaron después de la unificación.',
  undoNotMerge: 'Esta entrada del historial no se puede deshacer.',
  undoAlreadyDone: 'Esta unificación ya se deshizo.',
  adminSelfRevoke: 'No puede revocar su propio acceso.',
  adminLastActive: 'No se puede revocar el acceso del único administrador activo.',
  adminAlreadyRevoked: 'El acceso de este administrador ya fue revocado.',
  adminNotPending: 'Este administrador ya completó su registro.',
  adminRevoked: 'Se revocó el acceso.',
  mfaInvalidCode: 'El código de verificación es incorrecto.',
  mfaInvalidRecoveryCode: 'El código de recuperación es incorrecto o ya fue usado.',
  mfaExpired: 'La verificación expiró. Ingrese nuevamente su contraseña.',
  mfaAlreadyEnabled: 'La verificación en dos pasos ya está activa.',
  mfaNotEnabled: 'La verificación en dos pasos no está activa.',
  mfaNotStarted: 'Primero active la verificación en dos pasos.',
  mfaRequired: 'Debe activar la verificación en dos pasos para continuar.',
  mfaUnavailable:
    'La verificación en dos pasos no está disponible: falta SECRET_KEY en la configuración del servidor.',
  mfaEnabled: 'Se activó la verificación en dos pasos.',
  mfaDisabled: 'Se desactivó la verificación en dos pasos.',
  mfaEnrolCodeSent:
    'Le enviamos un código a su correo. Ingréselo para continuar con la activación.',
  mfaEnrolCodeInvalid: 'El código enviado por correo es incorrecto o expiró.',
  mfaEnrolCodeLimit:
    'Ya le enviamos varios códigos en la última hora. Use el más reciente o intente más tarde.',
  passwordChangedMfaReset:
    'Su contraseña fue cambiada y se desactivó la verificación en dos pasos. Ingrese con la nueva contraseña.',
  noDuplicates: 'No se encontraron posibles duplicados.',
  mergeDone: 'Se unificaron los nominados.',
  undoDone: 'Se deshizo la unificación.',
  noHistory: 'No hay cambios registrados.',
  auditDetailUnreadable: 'No se pudo leer el detalle de esta entrada.',
  // The exhibitor's screen guides to done (issue 32 item 6); "tú", as the exhibitor's area.
  exhListsComplete: '¡Listo! Tus nominaciones están guardadas.',
  exhReceiptComing: 'Te enviaremos un comprobante por correo.',
  exhPointsRule: '1° = 5 puntos, 2° = 4 puntos, 3° = 3 puntos, 4° = 2 puntos, 5° = 1 punto',
  // Annulled lists (issue 28 item 2).
  listAnnulled: 'Tu lista fue anulada por la organización.',
  annulReasonRequired: 'Indique el motivo.',
  listAlreadyAnnulled: 'Esta lista ya está anulada.',
  listNotAnnulled: 'Esta lista no está anulada.',
  nothingToAnnul: 'Esta lista no tiene votos para anular.',
  annulledListNotCorrectable: 'Esta lista está anulada: restablézcala antes de corregirla.',
  listAnnulledDone: 'Se anularon los votos.',
  listRestoredDone: 'Se restablecieron los votos.',
  // The reseller registry ("Padrón de resellers", issue 27).
  resellerNotInRegistry: 'El reseller no está en el padrón del programa.',
  invalidCuit: 'El ID fiscal no es un CUIT válido.',
  invalidFiscalId: 'ID fiscal inválido',
  resellerAlreadyInRegistry: 'Ese ID fiscal ya está en el padrón.',
  resellerNotFound: 'Ese reseller ya no está en el padrón.',
  registryNoFiscalIdColumn: 'El archivo no tiene una columna "ID fiscal".',
  registryTooManyRows: 'El archivo tiene más de 20.000 filas.',
  registryTooLarge: 'El archivo supera el tamaño máximo de 10 MB.',
  registrySaved: 'Se guardó el reseller en el padrón.',
  registryRemoved: 'Se quitó el reseller del padrón.',
  registryEmpty: 'El padrón está vacío.',
  // Categories per event (issue 26 item 1, docs/decisions/0034).
  categoryNameRequired: 'Escriba el nombre de la categoría.',
  categoryNameTooLong: 'El nombre admite hasta 40 caracteres.',
  categoryNameTaken: 'Ya hay una categoría con ese nombre en este evento.',
  categoryDescriptionTooLong: 'La descripción admite hasta 500 caracteres.',
  categoryLimitRange: 'Las nominaciones por expositor van de 1 a 10.',
  categoryScoringInvalid: 'Elija el puntaje: por puesto o un punto por nominación.',
  categoriesFull: 'Un evento admite hasta 10 categorías.',
  categoryLastOne: 'Un evento necesita al menos una categoría.',
  categoryShapeFrozen:
    'La categoría ya tiene nominaciones: no se pueden cambiar sus nominaciones por expositor ni su puntaje.',
  categoryInUse: 'La categoría tiene nominaciones y no se puede eliminar.',
  categoryAtEdge: 'La categoría ya está en ese extremo de la lista.',
} as const;

export type MessageKey = keyof typeof MSG;

/** What the exhibitor is told of a list the organisation annulled, with its reason. */
export type AnnulledListMessage = `Tu lista fue anulada por la organización: ${string}`;
export const annulledListText = (reason: string): AnnulledListMessage =>
  `Tu lista fue anulada por la organización: ${reason}`;

/** The exhibitor-votes page's mark on an annulled list. */
export const annulledText = (reason: string): string => `Anulado: ${reason}`;

/** The category tab's count of annulled lists. */
export const annulledListsText = (count: number): string => `Listas anuladas: ${count}`;

/** The correction dialogs ("Editar voto", "Editar nominación") say whose vote, at which place. */
export const voteOfText = (exhibitor: string, place: number): string =>
  `Voto de ${exhibitor}, puesto ${place}°`;

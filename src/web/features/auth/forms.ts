import { useEffect, useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormProps } from 'react-hook-form';
import { ApiError } from '../../lib/api.ts';

/**
 * The sign-in screens' form: React Hook Form validated by the shared Zod schema, like the
 * dialogs. Each message is shown once: on its field when it names one of the form's fields,
 * otherwise in the screen's alert. Typing clears them.
 */
export function useSignInForm<Input extends FieldValues, Output = Input>(
  options: UseFormProps<Input, unknown, Output>,
) {
  const form = useForm<Input, unknown, Output>({ reValidateMode: 'onSubmit', ...options });
  const [alert, setAlert] = useState<string | null>(null);
  useEffect(() => {
    const subscription = form.watch(() => {
      form.clearErrors();
      setAlert(null);
    });
    return () => subscription.unsubscribe();
  }, [form]);

  /** A failed call: the server's field messages on their fields, anything else in the alert. */
  function showError(
    caught: unknown,
    fields: readonly Path<Input>[],
    alertText: (error: ApiError | null) => string,
  ) {
    if (caught instanceof ApiError) {
      let onField = false;
      for (const [name, message] of Object.entries(caught.fields)) {
        const field = fields.find((candidate) => candidate === name);
        if (field) {
          form.setError(field, { message });
          onField = true;
        }
      }
      if (onField) return;
    }
    setAlert(alertText(caught instanceof ApiError ? caught : null));
  }

  return { form, alert, setAlert, showError };
}

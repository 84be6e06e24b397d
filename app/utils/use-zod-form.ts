import { useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { $ZodType, input, output } from 'zod/v4/core'

/** A schema of a form's fields (what conform's `parseWithZod` and `getZodConstraint` take). */
type FormSchema = $ZodType<Record<string, unknown>, Record<string, unknown>>
type UseFormOptions<Schema extends FormSchema> = Parameters<typeof useForm<input<Schema>, output<Schema>>>[0]

/**
 * conform's `useForm` as the forms here use it: the fields' constraints (required, maxlength…)
 * from the schema; with JavaScript, checked in the browser on submit, then again as the member
 * corrects each field, with the same schema the action parses; the action's answer as `lastResult`.
 */
export function useZodForm<Schema extends FormSchema>({
  schema,
  constraintSchema = schema,
  prepare = (formData) => formData,
  ...options
}: {
  id: string
  /** What the browser checks: the whole action's schema, often a union of its steps' schemas. */
  schema: Schema
  /** The fields this step of the form shows, when `schema` also covers other steps. */
  constraintSchema?: FormSchema
  lastResult?: SubmissionResult<string[]> | null
  defaultValue?: UseFormOptions<Schema>['defaultValue']
  /** The form data as the server receives it, when the page completes it first. */
  prepare?: (formData: FormData) => FormData
}) {
  return useForm<input<Schema>, output<Schema>>({
    ...options,
    constraint: getZodConstraint(constraintSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(prepare(formData), { schema }),
  })
}

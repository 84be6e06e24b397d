import type { Submission, SubmissionResult } from '@conform-to/react'
import { data, type AppLoadContext, type TypedResponse } from '@remix-run/node'
import { requireUser } from './auth.server.ts'
import { keepFormOnOutage } from './forms.server.ts'
import { formErrorsFromApi, type ApiErrorMapping } from './http.server.ts'
import { markFormError } from './meta.ts'

/**
 * A form action's one pattern (decision 069): the form read and checked with its schema (400 and
 * what was typed when it is wrong), the API called, the API's refusals shown next to the fields
 * they concern (decision 015), the database being down answered with the form as typed (503,
 * `keepFormOnOutage`), and on success whatever `save` answers, usually `redirectWithToast`.
 */

/** A refusal's messages (translation keys): conform's reply options. */
export interface FormMessages {
  fieldErrors?: Record<string, string[]>
  formErrors?: string[]
}

/** What `save` answers when it refuses without the API throwing (a code that is not right). */
export interface Refusal {
  refused: FormMessages
  status: number
}

export function refuse(status: number, refused: FormMessages): Refusal {
  return { refused, status }
}

function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'refused' in value && 'status' in value
}

/** A refused form's answer: the page's title says "Error:" (without JavaScript) and `status` is kept. */
export function refusedForm<T>(context: AppLoadContext, answer: T, status: number) {
  markFormError(context)
  return data(answer, { status })
}

export interface FormActionOptions<Value, Ready, Answer, Done> {
  /** Saves the checked value: where the member goes next (a redirect), or a `refuse(…)`. */
  save: (value: Value, ready: Ready) => Promise<Done | Refusal>
  /** What must hold before saving, checked inside the outage guard: the signed-in member unless given. */
  ready?: () => Promise<Ready>
  /** How the API's refusals read on this form. */
  apiErrors?: ApiErrorMapping
  /** The form's message when the database is down (503, what was typed kept); without it, the error page. */
  notSaved?: string
  /** Fields never sent back to the browser (passwords). */
  hideFields?: string[]
  /** What the page reads from a refused submission (`{ intent, result }`…); conform's result unless given. */
  answer?: (result: SubmissionResult<string[]>) => Answer
}

/** `redirect()`'s type: Remix reads no data from it (a plain `Response` would make the page's data `any`). */
type Redirect = TypedResponse<never>

export async function formAction<Value, Ready = Awaited<ReturnType<typeof requireUser>>, Answer = SubmissionResult<string[]>, Done = Redirect>(
  { request, context }: { request: Request; context: AppLoadContext },
  submission: Submission<unknown, string[], Value>,
  options: FormActionOptions<Value, Ready, Answer, Done>,
) {
  const answer = options.answer ?? ((result: SubmissionResult<string[]>) => result as Answer)
  const hideFields = options.hideFields ?? []
  const reply = (messages: FormMessages = {}) => answer(submission.reply({ ...messages, hideFields }))
  const ready = options.ready ?? (() => requireUser(request, context) as Promise<Ready>)
  const work = async () => {
    const found = await ready()
    if (submission.status !== 'success') return refusedForm(context, reply(), 400)
    let done: Done | Refusal
    try {
      done = await options.save(submission.value, found)
    } catch (error) {
      // Anything but a refusal of the API (a redirect, 404, the API down) goes on as it was thrown.
      const { status, ...messages } = formErrorsFromApi(error, options.apiErrors)
      return refusedForm(context, reply(messages), status)
    }
    return isRefusal(done) ? refusedForm(context, reply(done.refused), done.status) : done
  }
  const notSaved = options.notSaved
  return notSaved ? keepFormOnOutage(context, work, () => reply({ formErrors: [notSaved] })) : work()
}

/**
 * A form that sends a one-time code and then checks it (decision 069): the email change, the
 * phone, signing in with a code, signing up and resetting a password. The first step's intent
 * sends the code, `resend` sends it again from the code step, `verifyIntent` checks it. The page
 * reads `{ result, step, email }`: which step to show (the one the member was on, "Send a new
 * code" staying on the code step) and the address the code went to. A refused code is said next
 * to the code field; a code that could not be sent, above the form.
 */
export function codeFormAction<
  Value extends { intent: string; email?: string },
  Verify extends Value['intent'],
  Ready,
  First extends string,
  Second extends string,
>(
  args: { request: Request; context: AppLoadContext },
  submission: Submission<unknown, string[], Value>,
  options: {
    /** The page's names of its two steps. */
    steps: [First, Second]
    verifyIntent: Verify
    /** Sends the code (`again`: "Send a new code"): the code step to go to, or null to show it in this answer. */
    send: (value: Exclude<Value, { intent: Verify }>, ready: Ready, again: boolean) => Promise<Redirect | Refusal | null>
    /** Checks the code: where the member goes next, or a refusal (`codeRefused`). */
    verify: (value: Extract<Value, { intent: Verify }>, ready: Ready) => Promise<Redirect | Refusal>
  } & Pick<FormActionOptions<Value, Ready, unknown, Redirect>, 'ready' | 'apiErrors' | 'notSaved' | 'hideFields'>,
) {
  const { steps, verifyIntent, send, verify, ...rest } = options
  const [first, second] = steps
  const payload = submission.payload
  const onCodeStep = payload.intent === verifyIntent || payload.intent === 'resend'
  const sent = {
    step: onCodeStep ? second : first,
    email: submission.status === 'success' ? (submission.value.email ?? '') : typeof payload.email === 'string' ? payload.email : '',
  }
  const answer = (result: SubmissionResult<string[]>, step: First | Second = sent.step) => ({ result, step, email: sent.email })
  return formAction(args, submission, {
    ...rest,
    answer,
    save: async (value, ready) => {
      if (value.intent === verifyIntent) return verify(value as Extract<Value, { intent: Verify }>, ready)
      const next = await send(value as Exclude<Value, { intent: Verify }>, ready, value.intent === 'resend')
      return next ?? answer(submission.reply({ resetForm: true }), second)
    },
  })
}

/** A code that was not accepted, said next to the code field. */
export function codeRefused(status: number, key: string) {
  return refuse(status, { fieldErrors: { code: [key] } })
}

import { z } from 'zod'
import { composeVerificationEmail } from '../../verification/email.ts'
import { defineNotification } from '../kind.ts'

/** An identity verification request was approved or rejected (decision 025); the email reads the reason from the request. */
export const verificationDecided = defineNotification({
  type: 'verification.decided',
  data: z.object({ verification_id: z.uuid(), outcome: z.enum(['approved', 'rejected']) }),
  topic: null,
  copy: 'verification',
  text: (data, { t }) => (data.outcome ? { title: t(`${data.outcome}.title`), body: t(`${data.outcome}.body`) } : null),
  link: () => '/account/verification',
  email: { copy: ['verificationApproved', 'verificationRejected', 'verificationPhotosDeleted', 'verificationNeverAsked'], compose: composeVerificationEmail },
  push: false,
  sms: null,
})

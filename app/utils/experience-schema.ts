/**
 * @deprecated The experience's schema is the contract's (contract/experiences.ts): import it from
 * there. This re-export only keeps the web's resource clients building while they move; no shape
 * is declared here.
 */
export { experienceSchema, type Experience } from '#contract/experiences.ts'

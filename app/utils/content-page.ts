export interface ContentPage {
  title: string
  description: string
  intro: string
  updated?: string
  sections: { heading: string; body: string[] }[]
}

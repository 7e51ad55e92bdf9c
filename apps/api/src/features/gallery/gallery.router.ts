import { publicProcedure, router } from '../../trpc/init.js'
import { imageReference } from './gallery-read.service.js'
import { galleryImagesInput, imageReferenceInput } from './gallery.schema.js'
import { listImages } from './gallery.service.js'

export const galleryRouter = router({
  images: publicProcedure.input(galleryImagesInput).query(({ ctx, input }) => listImages(ctx.deps, input)),
  imageReference: publicProcedure.input(imageReferenceInput).query(({ ctx, input }) => imageReference(ctx.deps, input)),
})

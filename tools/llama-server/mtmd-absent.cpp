// The multimodal library's entry points for a llama-server built without it: Mira's test server loads a
// text-only model and never passes --mmproj, so none of these is reached except the defaults the server
// reads at start-up. Any other call means a multimodal request reached this build: it aborts.
#include <cstdio>
#include <cstdlib>
#include <map>

#include "mtmd-helper.h"
#include "mtmd.h"

[[noreturn]] static void absent(const char * what) {
    std::fprintf(stderr, "llama-server (Mira's test build): %s needs the multimodal library, which is not built in\n", what);
    std::abort();
}

extern "C" {

mtmd_helper_init_opt mtmd_helper_init_opt_default(void) {
    mtmd_helper_init_opt opt{};
    opt.video_params.fps_target            = 4.0f;
    opt.video_params.ffmpeg_bin_dir        = nullptr;
    opt.video_params.timestamp_interval_ms = 5000;
    return opt;
}

void mtmd_helper_log_set(ggml_log_callback, void *) {}

mtmd_context_params mtmd_context_params_default(void) { return mtmd_context_params{}; }  // read before --mmproj is checked
mtmd_context * mtmd_init_from_file(const char *, const llama_model *, const mtmd_context_params) { absent("--mmproj"); }
void mtmd_free(mtmd_context * ctx) { if (ctx) absent("mtmd_free"); }
mtmd_caps mtmd_get_cap_from_file(const char *) { absent("--mmproj"); }
bool mtmd_support_vision(const mtmd_context *) { return false; }
bool mtmd_support_audio(const mtmd_context *) { return false; }
bool mtmd_helper_support_video(const mtmd_context *) { return false; }
void mtmd_bitmap_free(mtmd_bitmap * b) { if (b) absent("mtmd_bitmap_free"); }
mtmd_input_chunks * mtmd_input_chunks_init(void) { absent("mtmd_input_chunks_init"); }
void mtmd_input_chunks_free(mtmd_input_chunks * c) { if (c) absent("mtmd_input_chunks_free"); }
size_t mtmd_input_chunks_size(const mtmd_input_chunks *) { absent("mtmd_input_chunks_size"); }
const mtmd_input_chunk * mtmd_input_chunks_get(const mtmd_input_chunks *, size_t) { absent("mtmd_input_chunks_get"); }
mtmd_input_chunk_type mtmd_input_chunk_get_type(const mtmd_input_chunk *) { absent("mtmd_input_chunk_get_type"); }
const llama_token * mtmd_input_chunk_get_tokens_text(const mtmd_input_chunk *, size_t *) { absent("mtmd_input_chunk_get_tokens_text"); }
size_t mtmd_input_chunk_get_n_tokens(const mtmd_input_chunk *) { absent("mtmd_input_chunk_get_n_tokens"); }
const char * mtmd_input_chunk_get_id(const mtmd_input_chunk *) { absent("mtmd_input_chunk_get_id"); }
llama_pos mtmd_input_chunk_get_n_pos(const mtmd_input_chunk *) { absent("mtmd_input_chunk_get_n_pos"); }
mtmd_input_chunk * mtmd_input_chunk_copy(const mtmd_input_chunk *) { absent("mtmd_input_chunk_copy"); }
void mtmd_input_chunk_free(mtmd_input_chunk * c) { if (c) absent("mtmd_input_chunk_free"); }
mtmd_input_chunk * mtmd_input_chunk_get_placeholder(const mtmd_input_chunk *) { absent("mtmd_input_chunk_get_placeholder"); }
mtmd_input_chunk * mtmd_input_chunk_load(const char *, size_t) { absent("mtmd_input_chunk_load"); }
int32_t mtmd_input_chunk_save(const mtmd_input_chunk *, char *, size_t, size_t *) { absent("mtmd_input_chunk_save"); }
int32_t mtmd_tokenize(const mtmd_context *, mtmd_input_chunks *, const mtmd_input_text *, const mtmd_bitmap * const *, size_t) { absent("mtmd_tokenize"); }
mtmd_batch * mtmd_batch_init(mtmd_context *) { absent("mtmd_batch_init"); }
void mtmd_batch_free(mtmd_batch * b) { if (b) absent("mtmd_batch_free"); }
int32_t mtmd_batch_add_chunk(mtmd_batch *, const mtmd_input_chunk *) { absent("mtmd_batch_add_chunk"); }
int32_t mtmd_batch_encode(mtmd_batch *) { absent("mtmd_batch_encode"); }
float * mtmd_batch_get_output_embd(mtmd_batch *, const mtmd_input_chunk *) { absent("mtmd_batch_get_output_embd"); }
mtmd_helper_bitmap_wrapper mtmd_helper_bitmap_init_from_buf(const mtmd_context *, const unsigned char *, size_t, bool, mtmd_helper_init_opt) { absent("an image or audio input"); }
void mtmd_helper_video_free(mtmd_helper_video * v) { if (v) absent("mtmd_helper_video_free"); }
int32_t mtmd_helper_decode_image_chunk(mtmd_context *, llama_context *, const mtmd_input_chunk *, float *, llama_pos, llama_seq_id, int32_t, llama_pos *, mtmd_helper_post_decode_callback, void *) { absent("mtmd_helper_decode_image_chunk"); }

}  // extern "C"

std::map<ggml_backend_dev_t, size_t> mtmd_get_memory_usage(const char *, mtmd_context_params) { absent("--mmproj"); }

/*
 * frame_loop.h — the fixed 60 Hz timestep.
 *
 * A frame: poll input (window), update(dt), draw(), present (draw the
 * commands with SDL_Renderer: into the window's back buffer, or headless
 * into a software renderer when a screenshot is due), record, then idle:
 * GC steps in idle-stepped mode (tide_gc_idle on the tide backend in its
 * other modes), waiting until the frame is due (window), and showing the
 * back buffer. The backend is told where each frame begins and ends
 * (backend_frame_begin/end), which tide uses to place and count pauses. Frame time is update + draw + present; the
 * buffer flip belongs to the idle time because with vsync it waits for the
 * vertical blank, which is not work the frame did.
 *
 * Headless runs as fast as it can and is deterministic: nothing the game
 * sees depends on the wall clock.
 */
#ifndef HOST_FRAME_LOOP_H
#define HOST_FRAME_LOOP_H

#include <stdint.h>

#include "backend.h"
#include "engine.h"
#include "options.h"
#include "platform.h"
#include "recorder.h"
#include "script.h"

typedef enum frame_End {
    FRAME_END_LIMIT,          /* ran the frames asked for */
    FRAME_END_QUIT,           /* the script called engine.quit() */
    FRAME_END_CLOSED,         /* the window was closed */
    FRAME_END_ERROR           /* see script_error() */
} frame_End;

typedef struct frame_Loop {
    const host_Options *options;
    engine_Host *host;
    backend_State *backend;
    script_Script *script;
    platform_Platform *platform;
    recorder_Recorder *recorder;
    int64_t frame_limit;              /* -1: until the window closes */
    void (*after_frame)(void *ud);    /* called once each frame is recorded */
    void *after_frame_ud;
} frame_Loop;

frame_End frame_loop_run(frame_Loop *loop);

#endif /* HOST_FRAME_LOOP_H */

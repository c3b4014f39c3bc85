/**
 * Shuttle's per-carrier timer heaps. Not API: {@code dev.shuttle.timers} is exported (as it was when this jar was an
 * automatic module) only so that {@code dev.shuttle.scheduler} can reach it, and may change in any release.
 */
module dev.shuttle.timers {
    exports dev.shuttle.timers;
}

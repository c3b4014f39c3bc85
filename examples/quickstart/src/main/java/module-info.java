/** The quick start as a module: on the module path it reads Shuttle's API module by its name. */
module com.example.quickstart {
    requires dev.shuttle.scheduler;
}

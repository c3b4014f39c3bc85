module dev.shuttle/sleepers

go 1.22

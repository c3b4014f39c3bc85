// Command sleepers is Go's side of the Tickers benchmark (10 threads sleeping 1 ms in a loop): N goroutines call
// time.Sleep(1 ms) in a loop; after a warm-up it reads every thread's CPU time and voluntary context switches from
// /proc twice, 5 s apart, and prints them with the wake-ups per second and the CPU per wake-up. Linux only.
//
//	cd scheduler-bench/src/main/go/sleepers && go run . -n 10
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// threadStat is one thread's CPU time in clock ticks (utime + stime) and its voluntary context switches.
type threadStat struct{ ticks, switches int64 }

func main() {
	n := flag.Int("n", 10, "sleeping goroutines")
	warmup := flag.Duration("warmup", 3*time.Second, "time before the first reading")
	window := flag.Duration("window", 5*time.Second, "time between the two readings")
	flag.Parse()

	var wakeups atomic.Int64
	for i := 0; i < *n; i++ {
		go func() {
			for {
				time.Sleep(time.Millisecond)
				wakeups.Add(1)
			}
		}()
	}
	time.Sleep(*warmup)
	before, w0 := threads(), wakeups.Load()
	time.Sleep(*window)
	after, w1 := threads(), wakeups.Load()

	const ticksPerSecond = 100 // USER_HZ on Linux
	secs := window.Seconds()
	var total int64
	var ids []string
	for id := range after {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		d := after[id].ticks - before[id].ticks
		total += d
		fmt.Printf("thread %s: cpu %.1f ms/s, voluntary switches %.0f/s\n", id,
			float64(d)*1000/ticksPerSecond/secs, float64(after[id].switches-before[id].switches)/secs)
	}
	wakes := float64(w1 - w0)
	cpuNanos := float64(total) * 1e9 / ticksPerSecond
	fmt.Printf("goroutines %d: wake-ups %.0f/s, cpu %.1f ms/s, cpu per wake-up %.2f us\n",
		*n, wakes/secs, cpuNanos/1e6/secs, cpuNanos/1e3/wakes)
}

// threads reads every thread of this process from /proc/self/task.
func threads() map[string]threadStat {
	stats := map[string]threadStat{}
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		dir := "/proc/self/task/" + e.Name()
		stat, err := os.ReadFile(dir + "/stat")
		if err != nil {
			continue // the thread exited
		}
		// Fields after the parenthesised command name; utime and stime are the 14th and 15th of the whole line.
		fields := strings.Fields(string(stat)[strings.LastIndexByte(string(stat), ')')+2:])
		var utime, stime, switches int64
		fmt.Sscan(fields[11], &utime)
		fmt.Sscan(fields[12], &stime)
		status, _ := os.ReadFile(dir + "/status")
		for _, line := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(line, "voluntary_ctxt_switches:") {
				fmt.Sscan(strings.Fields(line)[1], &switches)
			}
		}
		stats[e.Name()] = threadStat{utime + stime, switches}
	}
	return stats
}

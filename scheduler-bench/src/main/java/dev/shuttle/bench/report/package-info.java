/**
 * The report pipeline: {@link dev.shuttle.bench.report.FullRun} runs the suite and Go's counterparts, then reads
 * JMH's JSON ({@link dev.shuttle.bench.report.JmhResults}, a small {@link dev.shuttle.bench.report.Json} reader) and
 * Go's output ({@link dev.shuttle.bench.report.GoBench}), pairs JDK and Shuttle rows
 * ({@link dev.shuttle.bench.report.ComparisonTable}), maps rows to Go's numbers
 * ({@link dev.shuttle.bench.report.GoReference}) and writes Markdown ({@link dev.shuttle.bench.report.ReportWriter})
 * and SVG charts ({@link dev.shuttle.bench.report.Plots}, {@link dev.shuttle.bench.report.Charts}) with no extra
 * dependencies.
 */
package dev.shuttle.bench.report;

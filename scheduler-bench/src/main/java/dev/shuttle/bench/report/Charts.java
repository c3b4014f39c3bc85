package dev.shuttle.bench.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Grouped bar charts and line charts as SVG text, scaled to their data; a log scale for spreads like latency. */
public final class Charts {
    static final String[] COLORS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"};
    private static final int WIDTH = 760;
    private static final int HEIGHT = 420;
    private static final int LEFT = 80;
    private static final int RIGHT = 20;
    private static final int TOP = 50;
    private static final int BOTTOM = 70;

    private Charts() {
    }

    /**
     * Bars grouped by category, one bar per series. {@code series} maps a series name to one value per category
     * (NaN for none). Non-positive values are left out on a log scale.
     */
    public static String bars(String title, String yLabel, List<String> categories, Map<String, double[]> series,
            boolean log) {
        Svg svg = new Svg(WIDTH, HEIGHT);
        Axis axis = Axis.of(series.values().stream().flatMap(v -> java.util.Arrays.stream(v).boxed()).toList(), log);
        frame(svg, title, yLabel, axis);
        double plotW = WIDTH - LEFT - RIGHT;
        double group = plotW / Math.max(1, categories.size());
        double bar = group * 0.8 / Math.max(1, series.size());
        int s = 0;
        for (Map.Entry<String, double[]> e : series.entrySet()) {
            String color = COLORS[s % COLORS.length];
            for (int c = 0; c < categories.size(); c++) {
                double v = c < e.getValue().length ? e.getValue()[c] : Double.NaN;
                if (Double.isNaN(v) || log && v <= 0) {
                    continue;
                }
                double x = LEFT + c * group + group * 0.1 + s * bar;
                double y = axis.y(v);
                svg.rect(x, y, bar * 0.9, HEIGHT - BOTTOM - y, color);
            }
            legend(svg, s, e.getKey(), color);
            s++;
        }
        for (int c = 0; c < categories.size(); c++) {
            svg.text(LEFT + c * group + group / 2, HEIGHT - BOTTOM + 16, categories.get(c), "middle", 11);
        }
        return svg.toString();
    }

    /** Lines over a numeric x axis; {@code series} maps a name to points {x, y} sorted by x. */
    public static String lines(String title, String xLabel, String yLabel, Map<String, double[][]> series) {
        Svg svg = new Svg(WIDTH, HEIGHT);
        List<Double> ys = series.values().stream().flatMap(pts -> java.util.Arrays.stream(pts).map(p -> p[1]))
                .toList();
        List<Double> xsAll = series.values().stream().flatMap(pts -> java.util.Arrays.stream(pts).map(p -> p[0]))
                .toList();
        Axis axis = Axis.of(ys, false);
        frame(svg, title, yLabel, axis);
        double minX = xsAll.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        double maxX = xsAll.stream().mapToDouble(Double::doubleValue).max().orElse(1);
        double spanX = maxX > minX ? maxX - minX : 1;
        double plotW = WIDTH - LEFT - RIGHT - 20;
        Map<Double, Boolean> ticks = new LinkedHashMap<>();
        int s = 0;
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            String color = COLORS[s % COLORS.length];
            double[][] pts = e.getValue();
            double[] px = new double[pts.length];
            double[] py = new double[pts.length];
            for (int i = 0; i < pts.length; i++) {
                px[i] = LEFT + 10 + (pts[i][0] - minX) / spanX * plotW;
                py[i] = axis.y(pts[i][1]);
                svg.circle(px[i], py[i], 3, color);
                ticks.put(pts[i][0], true);
            }
            svg.polyline(px, py, color);
            legend(svg, s, e.getKey(), color);
            s++;
        }
        for (double x : ticks.keySet()) {
            svg.text(LEFT + 10 + (x - minX) / spanX * plotW, HEIGHT - BOTTOM + 16, ComparisonTable.format(x),
                    "middle", 11);
        }
        svg.text(LEFT + (WIDTH - LEFT - RIGHT) / 2.0, HEIGHT - 12, xLabel, "middle", 12);
        return svg.toString();
    }

    private static void frame(Svg svg, String title, String yLabel, Axis axis) {
        svg.text(WIDTH / 2.0, 24, title, "middle", 15);
        svg.text(12, TOP - 12, yLabel, "start", 11);
        svg.line(LEFT, TOP, LEFT, HEIGHT - BOTTOM, "#333");
        svg.line(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM, "#333");
        for (double tick : axis.ticks()) {
            double y = axis.y(tick);
            svg.line(LEFT - 4, y, WIDTH - RIGHT, y, "#ddd");
            svg.text(LEFT - 6, y + 4, ComparisonTable.format(tick), "end", 10);
        }
    }

    private static void legend(Svg svg, int index, String name, String color) {
        double x = LEFT + 10 + index * 150;
        svg.rect(x, HEIGHT - 36, 10, 10, color);
        svg.text(x + 14, HEIGHT - 27, name, "start", 11);
    }

    /** The y axis: linear from 0, or log10 between powers of ten around the data. */
    private record Axis(double min, double max, boolean log) {
        static Axis of(List<Double> values, boolean log) {
            double max = values.stream().filter(v -> !v.isNaN()).mapToDouble(Double::doubleValue).max().orElse(1);
            if (!log) {
                return new Axis(0, max > 0 ? max * 1.1 : 1, false);
            }
            double min = values.stream().filter(v -> !v.isNaN() && v > 0).mapToDouble(Double::doubleValue).min()
                    .orElse(1);
            return new Axis(Math.pow(10, Math.floor(Math.log10(min))),
                    Math.pow(10, Math.ceil(Math.log10(Math.max(max, min * 10)))), true);
        }

        double y(double v) {
            double f = log ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
                    : (v - min) / (max - min);
            return HEIGHT - BOTTOM - f * (HEIGHT - TOP - BOTTOM);
        }

        List<Double> ticks() {
            java.util.ArrayList<Double> t = new java.util.ArrayList<>();
            if (log) {
                for (double v = min; v <= max * 1.0001; v *= 10) {
                    t.add(v);
                }
            } else {
                for (int i = 0; i <= 5; i++) {
                    t.add(min + (max - min) * i / 5);
                }
            }
            return t;
        }
    }
}

package dev.shuttle.bench.report;

import java.util.Locale;

/** A minimal SVG writer: the elements the charts need, with text escaped so the output is well-formed XML. */
final class Svg {
    private final StringBuilder body = new StringBuilder();
    private final int width;
    private final int height;

    Svg(int width, int height) {
        this.width = width;
        this.height = height;
    }

    Svg rect(double x, double y, double w, double h, String fill) {
        body.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>%n",
                x, y, w, h, escape(fill)));
        return this;
    }

    Svg line(double x1, double y1, double x2, double y2, String stroke) {
        body.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n", x1, y1, x2, y2,
                escape(stroke)));
        return this;
    }

    Svg polyline(double[] xs, double[] ys, String stroke) {
        StringBuilder points = new StringBuilder();
        for (int i = 0; i < xs.length; i++) {
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", xs[i], ys[i]));
        }
        body.append("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"").append(escape(stroke))
                .append("\" points=\"").append(points.toString().trim()).append("\"/>\n");
        return this;
    }

    Svg circle(double x, double y, double r, String fill) {
        body.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>%n",
                x, y, r, escape(fill)));
        return this;
    }

    /** Text; {@code anchor} is start, middle or end. */
    Svg text(double x, double y, String text, String anchor, int size) {
        body.append(String.format(Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"%d\" text-anchor=\"%s\">%s</text>%n",
                x, y, size, anchor, escape(text)));
        return this;
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> sb.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height
                + "\" viewBox=\"0 0 " + width + " " + height + "\">\n"
                + "<rect x=\"0\" y=\"0\" width=\"" + width + "\" height=\"" + height + "\" fill=\"white\"/>\n"
                + body + "</svg>\n";
    }
}

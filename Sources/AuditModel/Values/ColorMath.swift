#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colour science the rules share: WCAG 2.2 luminance and contrast, APCA lightness
/// contrast, colour-vision-deficiency simulation and CIEDE2000.
public enum ColorMath {
    /// sRGB channel (0…255) to linear light, with WCAG 2.2's 0.04045 threshold. Channels
    /// are 8-bit, so the 256 values are computed once (the same formula, the same bits).
    public static func linear(_ channel: UInt8) -> Double { linearTable[Int(channel)] }

    private static let linearTable: [Double] = (0...255).map { channel in
        let c = Double(channel) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// APCA's simple 2.4 power curve per 8-bit channel.
    private static let apcaTable: [Double] = (0...255).map { pow(Double($0) / 255, 2.4) }

    /// WCAG relative luminance of an opaque colour.
    public static func luminance(_ color: RGBA) -> Double {
        0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
    }

    /// WCAG contrast ratio (1…21) of two opaque colours, unrounded.
    public static func contrastRatio(_ a: RGBA, _ b: RGBA) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// A ratio as reports show it: cut (not rounded) to two decimals, so 4.499 shows as
    /// 4.49 and never as the 4.5 it fails.
    public static func displayed(_ ratio: Double) -> Double {
        (ratio * 100).rounded(.down) / 100
    }

    /// APCA lightness contrast Lc (APCA-W3 0.0.98G-4g constants) of text on a background;
    /// positive for dark text on light, negative for light on dark.
    public static func apcaContrast(text: RGBA, background: RGBA) -> Double {
        func y(_ color: RGBA) -> Double {
            func channel(_ value: UInt8) -> Double { apcaTable[Int(value)] }
            return 0.2126729 * channel(color.red) + 0.7151522 * channel(color.green) + 0.0721750 * channel(color.blue)
        }
        func clamp(_ value: Double) -> Double { value > 0.022 ? value : value + pow(0.022 - value, 1.414) }
        let textY = clamp(y(text)), backgroundY = clamp(y(background))
        guard abs(backgroundY - textY) >= 0.0005 else { return 0 }
        if backgroundY > textY {
            let sapc = (pow(backgroundY, 0.56) - pow(textY, 0.57)) * 1.14
            return sapc < 0.1 ? 0 : (sapc - 0.027) * 100
        } else {
            let sapc = (pow(backgroundY, 0.65) - pow(textY, 0.62)) * 1.14
            return sapc > -0.1 ? 0 : (sapc + 0.027) * 100
        }
    }

    /// Colour-vision deficiencies simulated at full severity (Machado, Oliveira and
    /// Fernandes 2009), applied in linear sRGB.
    public enum Deficiency: String, Sendable, CaseIterable {
        case protanopia, deuteranopia, tritanopia

        var matrix: [[Double]] {
            switch self {
            case .protanopia:
                [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
            case .deuteranopia:
                [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
            case .tritanopia:
                [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
            }
        }
    }

    /// How `color` looks to a person with `deficiency`.
    public static func simulate(_ color: RGBA, _ deficiency: Deficiency) -> RGBA {
        let input = [linear(color.red), linear(color.green), linear(color.blue)]
        let m = deficiency.matrix
        func encode(_ value: Double) -> UInt8 {
            let v = min(1, max(0, value))
            let c = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8((c * 255).rounded())
        }
        let out = m.map { row in row[0] * input[0] + row[1] * input[1] + row[2] * input[2] }
        return RGBA(red: encode(out[0]), green: encode(out[1]), blue: encode(out[2]), alpha: color.alpha)
    }

    /// CIE L*a*b* (D65) of an opaque sRGB colour.
    public static func lab(_ color: RGBA) -> (l: Double, a: Double, b: Double) {
        let r = linear(color.red), g = linear(color.green), b = linear(color.blue)
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = (0.2126729 * r + 0.7151522 * g + 0.0721750 * b) / 1.0
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// CIE94 colour difference ΔE94 (graphic arts weights), as ATF's ContrastSwatch merges
    /// near colours with it.
    public static func deltaE94(_ first: RGBA, _ second: RGBA) -> Double {
        deltaE94(lab(first), lab(second))
    }

    /// ``deltaE94(_:_:)`` of colours already in L*a*b*.
    public static func deltaE94(_ first: (l: Double, a: Double, b: Double), _ second: (l: Double, a: Double, b: Double)) -> Double {
        let c1 = (first.a * first.a + first.b * first.b).squareRoot(), c2 = (second.a * second.a + second.b * second.b).squareRoot()
        let dL = first.l - second.l, dC = c1 - c2
        let da = first.a - second.a, db = first.b - second.b
        let dH2 = max(0, da * da + db * db - dC * dC)
        let sC = 1 + 0.045 * c1, sH = 1 + 0.015 * c1
        return (dL * dL + (dC / sC) * (dC / sC) + dH2 / (sH * sH)).squareRoot()
    }

    /// CIEDE2000 colour difference ΔE00 (Sharma, Wu and Dalal 2005).
    public static func deltaE2000(_ first: RGBA, _ second: RGBA) -> Double {
        let (l1, a1, b1) = lab(first), (l2, a2, b2) = lab(second)
        let c1 = hypot(a1, b1), c2 = hypot(a2, b2)
        let cBar = (c1 + c2) / 2
        let g = 0.5 * (1 - sqrt(pow(cBar, 7) / (pow(cBar, 7) + pow(25, 7))))
        let a1p = (1 + g) * a1, a2p = (1 + g) * a2
        let c1p = hypot(a1p, b1), c2p = hypot(a2p, b2)
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) * 180 / .pi
            return h >= 0 ? h : h + 360
        }
        let h1p = hue(b1, a1p), h2p = hue(b2, a2p)
        let dLp = l2 - l1
        let dCp = c2p - c1p
        var dhp = 0.0
        if c1p * c2p != 0 {
            dhp = h2p - h1p
            if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
        }
        let dHp = 2 * sqrt(c1p * c2p) * sin(dhp * .pi / 360)
        let lBarP = (l1 + l2) / 2
        let cBarP = (c1p + c2p) / 2
        var hBarP = h1p + h2p
        if c1p * c2p != 0 {
            if abs(h1p - h2p) <= 180 { hBarP = (h1p + h2p) / 2 } else if h1p + h2p < 360 { hBarP = (h1p + h2p + 360) / 2 } else { hBarP = (h1p + h2p - 360) / 2 }
        }
        let t =
            1 - 0.17 * cos((hBarP - 30) * .pi / 180) + 0.24 * cos(2 * hBarP * .pi / 180)
            + 0.32 * cos((3 * hBarP + 6) * .pi / 180) - 0.20 * cos((4 * hBarP - 63) * .pi / 180)
        let dTheta = 30 * exp(-pow((hBarP - 275) / 25, 2))
        let rc = 2 * sqrt(pow(cBarP, 7) / (pow(cBarP, 7) + pow(25, 7)))
        let sl = 1 + (0.015 * pow(lBarP - 50, 2)) / sqrt(20 + pow(lBarP - 50, 2))
        let sc = 1 + 0.045 * cBarP
        let sh = 1 + 0.015 * cBarP * t
        let rt = -sin(2 * dTheta * .pi / 180) * rc
        let termL = dLp / sl, termC = dCp / sc, termH = dHp / sh
        return sqrt(termL * termL + termC * termC + termH * termH + rt * termC * termH)
    }
}

package results

import (
	"encoding/base64"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fecontact/fecontact/internal/atomicfile"
	"github.com/fecontact/fecontact/io/outdir"
	"github.com/fecontact/fecontact/kind"
)

// ParaViewScript is the name of the ParaView Python script a run writes
// beside its series: `pvpython view_in_paraview.py` opens the run (or, in
// ParaView, View > Python Shell > Run Script, or Macros > Import new
// macro), `--png FILE` renders the frame it shows and exits.
const ParaViewScript = "view_in_paraview.py"

// shown is a series as the ParaView script shows it: its .pvd's name and
// its style (a kind.Style's name, or the Writer's own series':
// "obstacles", "chains", "contacts").
type shown struct{ name, style string }

// styleNames are kind.Style's names in the script.
var styleNames = map[kind.Style]string{kind.Solid: "solid", kind.Lines: "lines", kind.Dots: "dots", kind.Warped: "warped"}

// writeParaViewScript writes the script that opens the series (the .pvd
// names, in the folder) in ParaView, each as its style says. Its text
// depends only on the series and the folder, so that a resumed run writes
// it byte for byte as the run never stopped; the force range and the
// framing are measured by the script on the files.
func writeParaViewScript(files *outdir.Folder, series []shown) error {
	if len(series) == 0 {
		return nil
	}
	path, err := files.Path(ParaViewScript)
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(files.Dir())
	if err != nil {
		return err
	}
	quoted, styles := make([]string, len(series)), make([]string, len(series))
	for i, s := range series {
		quoted[i] = strconv.Quote(s.name) // .pvd names of ours: plain ASCII
		styles[i] = quoted[i] + ": " + strconv.Quote(s.style)
	}
	text := strings.NewReplacer(
		"@SERIES@", "["+strings.Join(quoted, ", ")+"]",
		"@STYLES@", "{"+strings.Join(styles, ", ")+"}",
		"@RUN@", strconv.Quote(base64.StdEncoding.EncodeToString([]byte(dir))),
	).Replace(paraviewTemplate)
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

// writtenSeries lists the .pvd files the Writer wrote and their styles,
// in the order the script shows them: the kinds' series, the obstacles,
// the force chains, the contacts.
func (o *Writer) writtenSeries() []shown {
	var all []shown
	for _, s := range o.drawn {
		all = append(all, shown{s.name, styleNames[s.style]})
	}
	all = append(all, shown{"obstacles", "obstacles"}, shown{"chains", "chains"}, shown{"contacts", "contacts"})
	var out []shown
	for _, s := range all {
		if len(o.lists()[s.name].Entries()) > 0 {
			out = append(out, shown{s.name + ".pvd", s.style})
		}
	}
	return out
}

// paraviewTemplate is the script, @SERIES@ and @RUN@ (the folder's
// absolute path, base64: any bytes a name holds) filled in.
const paraviewTemplate = `# Written by fecontact: this run in ParaView.
#
#   pvpython view_in_paraview.py                 a window on the run
#   pvpython view_in_paraview.py --png FILE.png  render the frame it shows, then exit
#   xvfb-run -a pvpython view_in_paraview.py --png FILE.png   the same without a display
#
# In ParaView's window: View > Python Shell > Run Script, or Macros > Import
# new Macro (the macro finds the run by the folder it was written in).
#
# It opens every series of the run, warps the deformable bodies by their
# displacement (coloured by von Mises stress), draws the rigid bodies,
# obstacles and point masses, glyphs the contact forces as arrows whose
# length is scaled from the largest force of the run (coloured by status:
# 0 open, 1 stick, 2 and 3 sliding), frames the camera on the moving bodies
# over the run, and shows the frame of the largest contact force.
import base64
import os
import sys

SERIES = @SERIES@
STYLES = @STYLES@  # warped, solid, lines, dots (the kinds' series), obstacles, chains, contacts
RUN = os.fsdecode(base64.b64decode(@RUN@))
SAMPLES = 40  # frames read to measure the force range and the framing


def run_folder():
    """The folder of the series: beside this script, here, or where it was written."""
    here = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else ""
    for d in (here, os.getcwd(), RUN):
        if d and all(os.path.isfile(os.path.join(d, s)) for s in SERIES):
            return d
    sys.exit("fecontact: the run's series (%s) are neither beside this script nor in %s"
             % (", ".join(SERIES), RUN))


def times_of(reader):
    t = reader.TimestepValues
    if t is None:
        return [0.0]
    return list(t) if hasattr(t, "__len__") else [t]


def sampled(times):
    step = max(1, len(times) // SAMPLES)
    return sorted(set(times[::step] + [times[-1]]))


def extend(box, source, t):
    source.UpdatePipeline(t)
    info = source.GetDataInformation()
    if info.GetNumberOfPoints() == 0:
        return box
    b = info.GetBounds()
    if box is None:
        return list(b)
    return [min(box[0], b[0]), max(box[1], b[1]), min(box[2], b[2]), max(box[3], b[3]),
            min(box[4], b[4]), max(box[5], b[5])]


def place_bar(bar, title, top):
    """A scalar bar at the right edge, its top at top (view fraction)."""
    bar.Title = title
    bar.ComponentTitle = ""
    bar.WindowLocation = "Any Location"
    bar.Orientation = "Vertical"
    bar.Position = [0.92, top - 0.38]
    bar.ScalarBarLength = 0.36
    bar.TitleFontSize = 12
    bar.LabelFontSize = 11
    bar.RangeLabelFormat = "%-#.3g"
    bar.AddRangeLabels = 1


def main(argv):
    import paraview.simple as pv

    png = None
    if "--png" in argv:
        i = argv.index("--png")
        if i + 1 >= len(argv):
            sys.exit("fecontact: --png needs a file name")
        png = argv[i + 1]
    folder = run_folder()
    view = pv.GetActiveViewOrCreate("RenderView")
    view.OrientationAxesVisibility = 0
    if png is not None:
        view.ViewSize = [1280, 800]
    readers = {s: pv.PVDReader(registrationName=s, FileName=os.path.join(folder, s)) for s in SERIES}
    times = times_of(readers[SERIES[0]])
    moving = []  # what the camera frames
    stressed = None  # the bodies' display, coloured by stress

    dots = []  # the series drawn as spheres, once the scene's size is known
    for name in SERIES:
        reader, style = readers[name], STYLES[name]
        if style == "warped":  # deformable bodies, coloured by stress
            warped = pv.WarpByVector(registrationName=name[:-4] + ", warped", Input=reader,
                                     Vectors=["POINTS", "displacement"])
            d = pv.Show(warped, view)
            d.SetRepresentationType("Surface With Edges")
            pv.ColorBy(d, ("POINTS", "von_mises"))
            stressed = d
            moving.append(warped)
        elif style == "solid":  # bodies as surfaces; a ground (driven) is drawn, not framed
            d = pv.Show(reader, view)
            d.SetRepresentationType("Surface With Edges")
            d.ColorArrayName = ["POINTS", ""]
            d.DiffuseColor = [0.80, 0.80, 0.85]
            reader.UpdatePipeline(times[-1])
            if reader.CellData["driven"] is not None:
                free = pv.Threshold(registrationName=name[:-4] + ", not driven", Input=reader, Scalars=["CELLS", "driven"],
                                    LowerThreshold=0.5, ThresholdMethod="Below Lower Threshold")
                moving.append(free)
            else:
                moving.append(reader)
        elif style == "obstacles":
            d = pv.Show(reader, view)
            d.ColorArrayName = ["POINTS", ""]
            d.AmbientColor = d.DiffuseColor = [0.35, 0.35, 0.35]
            d.LineWidth = 2.0
        elif style == "chains":  # force chains: lines between grains, by normal force
            d = pv.Show(reader, view)
            pv.ColorBy(d, ("CELLS", "force_normal"))
            d.LineWidth = 2.0
            d.SetScalarBarVisibility(view, False)
        elif style == "lines":
            d = pv.Show(reader, view)
            d.ColorArrayName = ["POINTS", ""]
            d.AmbientColor = d.DiffuseColor = [0.1, 0.1, 0.1]
        elif style == "dots":
            moving.append(reader)
            dots.append(name)
    if not moving:
        moving = list(readers.values())

    # The moving bodies' extent over the run, and the largest contact force.
    box, fmax, tmax = None, 0.0, times[-1]
    contacts = readers.get("contacts.pvd")
    for t in sampled(times):
        for source in moving:
            box = extend(box, source, t)
        if contacts is not None:
            contacts.UpdatePipeline(t)
            force = contacts.PointData["force"]
            if force is not None:
                top = force.GetRange(-1)[1]
                if top > fmax:
                    fmax, tmax = top, t
    if box is None:
        box = [-1.0, 1.0, -1.0, 1.0, 0.0, 0.0]
    size = max(box[1] - box[0], box[3] - box[2], 1e-12)
    width, height = max(box[1] - box[0], size / 20), max(box[3] - box[2], size / 20)

    for name in dots:  # spheres of their radius, or of 1 % of the scene for points
        points = readers[name]
        points.UpdatePipeline(times[-1])
        radius = points.PointData["radius"]
        if radius is not None and radius.GetRange()[1] > 0:
            balls = pv.Glyph(registrationName=name[:-4], Input=points, GlyphType="Sphere",
                             ScaleArray=["POINTS", "radius"], ScaleFactor=2.0, GlyphMode="All Points")
        else:
            balls = pv.Glyph(registrationName=name[:-4], Input=points, GlyphType="Sphere",
                             ScaleArray=["POINTS", "No scale array"], ScaleFactor=0.02 * size, GlyphMode="All Points")
        d = pv.Show(balls, view)
        d.ColorArrayName = ["POINTS", ""]
        d.DiffuseColor = [0.84, 0.15, 0.16]

    if contacts is not None and fmax > 0:
        arrows = pv.Glyph(registrationName="contact forces", Input=contacts, GlyphType="Arrow",
                          OrientationArray=["POINTS", "force"], ScaleArray=["POINTS", "force"],
                          ScaleFactor=0.25 * size / fmax, GlyphMode="All Points")
        d = pv.Show(arrows, view)
        pv.ColorBy(d, ("POINTS", "status"))
        lut = pv.GetColorTransferFunction("status")
        lut.InterpretValuesAsCategories = 1
        lut.Annotations = ["0", "open", "1", "stick", "2", "slide +", "3", "slide -"]
        lut.IndexedColors = [0.6, 0.6, 0.6, 0.17, 0.63, 0.17, 0.84, 0.15, 0.16, 0.12, 0.47, 0.71]
        place_bar(pv.GetScalarBar(lut, view), "contact status", 0.90)
        d.SetScalarBarVisibility(view, True)

    scene = pv.GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = tmax
    view.ViewTime = tmax
    if stressed is not None:
        stressed.RescaleTransferFunctionToDataRange(False, True)
        place_bar(pv.GetScalarBar(pv.GetColorTransferFunction("von_mises"), view), "von Mises stress (Pa)", 0.45)
        stressed.SetScalarBarVisibility(view, True)
    what = "the largest contact force of the run" if fmax > 0 else "no contact force in the frames"
    label = pv.Text(registrationName="time", Text="t = %.6g s, %s" % (tmax, what))
    t = pv.Show(label, view)
    t.WindowLocation = "Upper Left Corner"
    t.FontSize = 12

    cx, cy = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    view.CameraPosition = [cx, cy, 10 * size]
    view.CameraFocalPoint = [cx, cy, 0.0]
    view.CameraViewUp = [0.0, 1.0, 0.0]
    view.CameraParallelProjection = 1
    w, h = view.ViewSize if view.ViewSize[0] > 0 else (1280, 800)
    view.CameraParallelScale = 0.6 * max(height, width * h / w)

    if png is not None:
        pv.SaveScreenshot(png, view, ImageResolution=[1280, 800])
        return
    pv.Render(view)
    if "paraview.simple" in PRELOADED:  # in ParaView's window: it is shown
        return
    pv.Interact(view)


PRELOADED = set(sys.modules)  # ParaView's window has paraview.simple loaded already
if __name__ in ("__main__", "__vtkconsole__") or "paraview.simple" in PRELOADED:
    main(sys.argv[1:])
`

"""The drawing toolkit of the procedural image families: fonts shipped by installed packages, difficulty knobs,
a canvas with font faces, handwriting-like text, photo-like finishing (perspective, lighting, noise, blur,
resolution, JPEG), phone and desktop screen chrome, and charts drawn with matplotlib. Every function is
deterministic: the same arguments give the same bytes on any machine with the same Pillow and matplotlib."""
